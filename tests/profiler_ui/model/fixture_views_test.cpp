// Every aggregation on the recorded fixtures, with the values the recording
// must give (samples/graph_breaks_demo.py states most of them in its header:
// with train(16), steps 2-15 are captured, so every-step breaks count 14).
#include <gtest/gtest.h>

#include <algorithm>

#include "fixture_util.h"
#include "profiler_ui/model/compare.h"

namespace kiln::inspect {
namespace {

const BreakRow* find_break(const std::vector<BreakRow>& rows, const std::string& category, int line) {
  for (const BreakRow& r : rows)
    if (r.category == category && r.loc.line == line) return &r;
  return nullptr;
}

const KernelRow* find_kernel(const std::vector<KernelRow>& rows, const std::string& name) {
  for (const KernelRow& r : rows)
    if (r.name == name) return &r;
  return nullptr;
}

class GraphBreaksDemo : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { a_ = testing::analyze_fixture("graph_breaks_demo.kilntrace"); }
  static void TearDownTestSuite() { a_.reset(); }
  void SetUp() override { ASSERT_TRUE(a_); }
  static std::shared_ptr<const Analysis> a_;
};
std::shared_ptr<const Analysis> GraphBreaksDemo::a_;

TEST_F(GraphBreaksDemo, Summary) {
  const Summary& s = a_->summary;
  EXPECT_EQ(s.script, "samples/graph_breaks_demo.py");
  EXPECT_EQ(s.graphs, 23u);  // "expect graphs: 23"
  EXPECT_EQ(s.graph_breaks, 63u);
  EXPECT_EQ(s.graph_break_sites, 10u);  // all ten kinds, one line each
  EXPECT_EQ(s.recompiles, 3u);
  EXPECT_EQ(s.guard_failures, 3u);
  EXPECT_EQ(s.kernel_calls, 617u);
  EXPECT_EQ(s.dropped_events, 0u);
  EXPECT_EQ(s.duration_ns, 356664879);
  // The parts add up to the whole (nothing is counted twice).
  EXPECT_EQ(s.interpreter_ns + s.compiled_ns + s.compiling_ns, s.duration_ns);
  EXPECT_GT(s.compiled_ns, 0);
  ASSERT_FALSE(s.top_kernels.empty());
  EXPECT_EQ(s.top_kernels[0].name, "multinomial");
  EXPECT_EQ(s.top_kernels[0].calls, 17u);
}

TEST_F(GraphBreaksDemo, BreakSitesCountsAndLines) {
  const auto& rows = a_->breaks;
  ASSERT_EQ(rows.size(), 10u);
  struct Expect {
    const char* category;
    int line;
    uint64_t count;
  };
  // The script's "expect breaks" lines, scaled to train(16).
  for (Expect e : {Expect{"data_dependent_branch", 68, 14}, {"metadata_mutation", 71, 14}, {"data_access", 74, 14},
                   {"data_dependent_check", 77, 14}, {"item", 80, 1}, {"print", 83, 1}, {"tolist", 85, 1},
                   {"data_dependent_shape", 88, 1}, {"disabled", 92, 2}, {"exception", 123, 1}}) {
    const BreakRow* r = find_break(rows, e.category, e.line);
    ASSERT_TRUE(r) << e.category << "@" << e.line;
    EXPECT_EQ(r->count, e.count) << e.category;
    EXPECT_EQ(r->loc.file, "samples/graph_breaks_demo.py");
    EXPECT_NE(r->source_line.find(std::string("# BREAK ") + e.category), std::string::npos) << r->source_line;
    EXPECT_GT(r->time_lost_ns, 0) << e.category;
    EXPECT_EQ(r->events.size(), e.count);
  }
  // Sorted by time lost.
  for (size_t i = 1; i < rows.size(); ++i) EXPECT_GE(rows[i - 1].time_lost_ns, rows[i].time_lost_ns);
  const BreakRow* disabled = find_break(rows, "disabled", 92);
  EXPECT_EQ(disabled->stack,
            "_DisabledFunction.__call__ (<prelude>/compiler.py:97) <- train (samples/graph_breaks_demo.py:92) <- "
            "<module> (samples/graph_breaks_demo.py:114)");  // "expect stack: disabled@92 train <- <module>"
  const BreakRow* branch = find_break(rows, "data_dependent_branch", 68);
  EXPECT_NE(branch->message.find("torch.where"), std::string::npos);
  EXPECT_EQ(branch->graphs_before, std::vector<uint64_t>({10}));  // the break cut the loop's iteration graph
  // Graph 11 (`best = loss` onwards) runs right after every time: its "run graph 11" span
  // says so even though it launches no fused kernel.
  EXPECT_EQ(branch->graphs_after, std::vector<uint64_t>({11}));
}

TEST_F(GraphBreaksDemo, Recompiles) {
  const auto& rows = a_->recompiles;
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[0].region, "loop at <prelude>/optim.py:186 in Adam.step");
  EXPECT_EQ(rows[0].guard, "`zeros_like` at <prelude>/optim.py:127, argument `self` (input 0): number of dims");
  EXPECT_EQ(rows[0].expected, "2");
  EXPECT_EQ(rows[0].actual, "1");
  EXPECT_EQ(rows[0].cache_entries, 1u);
  EXPECT_EQ(rows[0].graph_id, 5u);
  EXPECT_FALSE(rows[0].automatic_dynamic);
  EXPECT_FALSE(rows[0].storm);
  EXPECT_EQ(rows[1].region, "loop at samples/graph_breaks_demo.py:60 in train");
  EXPECT_EQ(rows[1].guard, "number of ops in the region");
  EXPECT_EQ(rows[1].region_recompiles, 2u);
  EXPECT_EQ(rows[2].cache_entries, 2u);
  EXPECT_EQ(rows[2].loc.str(), "samples/graph_breaks_demo.py:80");
  // With a cache limit of 2 the training loop's region is a storm, Adam's is not.
  auto storm = recompiles(*a_->index, RecompileOptions{2});
  EXPECT_FALSE(storm[0].storm);
  EXPECT_TRUE(storm[1].storm);
  EXPECT_TRUE(storm[2].storm);
}

TEST_F(GraphBreaksDemo, Graphs) {
  const auto& graphs = a_->index->graphs();
  ASSERT_EQ(graphs.size(), 23u);
  const GraphInfo* g1 = a_->index->graph(1);
  ASSERT_TRUE(g1);
  EXPECT_EQ(g1->region, "Module.__call__");
  EXPECT_EQ(g1->op_count, 1);
  ASSERT_EQ(g1->nodes.size(), 1u);
  EXPECT_EQ(g1->nodes[0].op, "relu");
  EXPECT_EQ(g1->nodes[0].loc.str(), "<prelude>/nn.py:553");
  ASSERT_EQ(g1->plan.size(), 1u);
  EXPECT_EQ(g1->plan[0].kernel, "fused_relu");
  EXPECT_GT(g1->compile_ns, 0);
  EXPECT_GT(g1->codegen_ns, 0);
  const GraphInfo* g10 = a_->index->graph(10);
  EXPECT_EQ(g10->region, "loop at samples/graph_breaks_demo.py:60 in train");
  EXPECT_EQ(g10->op_count, 77);
  EXPECT_EQ(g10->guard_checks, 13);
  // Measured: one "run graph 10" span per captured iteration (steps 2-15). The
  // estimate from kernel calls said 56: Adam's kernel runs once per parameter.
  EXPECT_TRUE(g10->runs_measured);
  EXPECT_EQ(g10->runs, 14u);
  EXPECT_GE(g10->run_ns, g10->kernel_ns);  // a run holds its fused kernels and its eager steps
  // Every fused group's nodes were recovered from its name.
  for (const GraphInfo& g : graphs)
    for (const FusedGroup& fg : g.plan)
      if (fg.fused) {
        EXPECT_EQ(int(fg.node_indices.size()), fg.nodes) << g.id << " " << fg.kernel;
      }
  // Graphs 22 and 23 hold the same forward pass: same IR hash, different regions.
  EXPECT_EQ(a_->index->graph(22)->hash, a_->index->graph(23)->hash);
  EXPECT_TRUE(a_->index->graph(5)->after_recompile);
  EXPECT_FALSE(a_->index->graph(4)->after_recompile);
}

TEST_F(GraphBreaksDemo, KernelStats) {
  const KernelRow* mm = find_kernel(a_->kernels, "mm");
  ASSERT_TRUE(mm);
  EXPECT_EQ(mm->calls, 89u);
  EXPECT_EQ(mm->total_ns, 406300);
  EXPECT_EQ(mm->bytes, 1063168u);
  EXPECT_EQ(mm->flops, 3276800u);
  EXPECT_DOUBLE_EQ(mm->gb_per_s, 1063168.0 / 406300.0);
  EXPECT_FALSE(mm->fused);
  const KernelRow* relu = find_kernel(a_->kernels, "fused_relu");
  ASSERT_TRUE(relu);
  EXPECT_TRUE(relu->fused);
  EXPECT_EQ(relu->graphs, std::vector<uint64_t>({1}));
  ASSERT_EQ(relu->nodes.size(), 1u);
  EXPECT_EQ(relu->code.rfind("kernel fused_relu pointwise", 0), 0u) << relu->code;
  auto with_bw = kernel_stats(*a_->index, KernelStatsOptions{10.0});
  const KernelRow* mm2 = find_kernel(with_bw, "mm");
  EXPECT_DOUBLE_EQ(mm2->percent_of_bandwidth, mm2->gb_per_s * 10.0);
}

TEST_F(GraphBreaksDemo, ProvenanceBothWays) {
  KernelProvenance lt = a_->provenance.of_kernel("fused_lt");
  ASSERT_EQ(lt.lines.size(), 1u);
  EXPECT_EQ(lt.lines[0].str(), "samples/graph_breaks_demo.py:68");  // `if loss < best`
  LineProvenance l85 = a_->provenance.of_line("samples/graph_breaks_demo.py", 85);
  EXPECT_EQ(l85.graphs, std::vector<uint64_t>({6, 19}));
  EXPECT_NE(std::find(l85.kernels.begin(), l85.kernels.end(), "fused_eq"), l85.kernels.end());
  EXPECT_TRUE(a_->provenance.of_kernel("no_such_kernel").nodes.empty());
  EXPECT_TRUE(a_->provenance.of_line("samples/graph_breaks_demo.py", 1).graphs.empty());
}

TEST_F(GraphBreaksDemo, Payback) {
  ASSERT_EQ(a_->payback.size(), 23u);
  const PaybackRow& g10 = a_->payback[9];
  EXPECT_EQ(g10.graph_id, 10u);
  EXPECT_EQ(g10.runs, 14u);
  EXPECT_TRUE(g10.runs_measured);
  EXPECT_DOUBLE_EQ(g10.compiled_ns_per_run, double(a_->index->graph(10)->run_ns) / 14.0);
  EXPECT_EQ(g10.compile_ns, a_->index->graph(10)->compile_ns + a_->index->graph(10)->codegen_ns);
  EXPECT_GT(g10.saved_ns_per_run, 0);
  // Graph 5 came from a recompile and ran once: it never paid for its LLVM compile.
  EXPECT_TRUE(a_->payback[4].after_recompile);
  EXPECT_TRUE(a_->payback[4].recompile_never_paid_off);
}

TEST_F(GraphBreaksDemo, TimelineLanesAndMarkers) {
  const Timeline& t = *a_->timeline;
  ASSERT_EQ(t.lanes().size(), 2u);  // compiled synchronously: everything on the interpreter thread
  EXPECT_EQ(t.lanes()[0].kind, LaneKind::Interpreter);
  EXPECT_EQ(t.lanes()[1].kind, LaneKind::Compiler);
  EXPECT_GT(t.lanes()[1].depths, 1);  // codegen graph N > llvm phases
  TimelineView v = t.query(t.start_ns(), t.end_ns(), 1 << 20);  // wide enough to separate all markers
  size_t breaks = 0, recompiles = 0;
  for (const Marker& m : v.markers) (m.kind == MarkerKind::GraphBreak ? breaks : recompiles) += m.count;
  EXPECT_EQ(breaks, 63u);
  EXPECT_EQ(recompiles, 3u + 3u);  // recompiles and guard failures
  EXPECT_EQ(v.gaps.size(), 63u);
  size_t items = 0;
  for (const LaneItems& l : v.lanes)
    for (const DrawItem& d : l.items) items += d.count;
  EXPECT_EQ(items, t.lanes()[0].events + t.lanes()[1].events);  // culling nothing, merging loses nothing
  RangeStats rs = t.range_stats(t.start_ns(), t.end_ns());
  EXPECT_EQ(rs.graph_breaks, 63u);
  EXPECT_EQ(rs.recompiles, 3u);
}

TEST(TrainGpt, Views) {
  auto a = testing::analyze_fixture("train_gpt.kilntrace");
  ASSERT_TRUE(a);
  EXPECT_EQ(a->summary.script, "samples/train_gpt.py");
  EXPECT_EQ(a->summary.graphs, 18u);
  EXPECT_EQ(a->summary.graph_breaks, 4u);
  EXPECT_EQ(a->summary.recompiles, 5u);
  const BreakRow* item = find_break(a->breaks, "item", 181);
  ASSERT_TRUE(item);
  EXPECT_EQ(item->source_line, "        print(f\"step {step:3d}  loss {loss.item():.4f}\")");
  ASSERT_EQ(a->recompiles.size(), 5u);
  EXPECT_EQ(a->recompiles[4].region, "loop at samples/train_gpt.py:174 in <module>");
  EXPECT_EQ(a->recompiles[4].expected, "True");
  EXPECT_EQ(a->recompiles[4].actual, "False");
  EXPECT_EQ(a->index->graph(15)->op_count, 422);
  // Kernels come from the disk cache: no generated code recorded, a background compile lane.
  EXPECT_TRUE(a->index->output_code().empty());
  EXPECT_GT(a->summary.compile_background_ns, 0);
  EXPECT_EQ(a->summary.interpreter_ns + a->summary.compiled_ns + a->summary.compiling_ns, a->summary.duration_ns);
}

TEST(Compare, SessionWithItselfHasNoDifferences) {
  auto s = testing::load_fixture("graph_breaks_short.kilntrace");
  ASSERT_TRUE(s);
  auto idx = SessionIndex::build(s);
  Comparison c = compare_sessions(*idx, *idx);
  EXPECT_EQ(c.graphs.size(), 18u);
  for (const GraphDiff& g : c.graphs) EXPECT_EQ(g.presence, Presence::Both);
  for (const BreakDiff& b : c.breaks) EXPECT_EQ(b.count_a, b.count_b);
  for (const KernelDiff& k : c.kernels) EXPECT_EQ(k.change_percent, 0);
}

TEST(Compare, LongerRunBreaksMoreAtTheSameLines) {
  auto a = testing::load_fixture("graph_breaks_short.kilntrace");
  auto b = testing::load_fixture("graph_breaks_demo.kilntrace");
  ASSERT_TRUE(a && b);
  Comparison c = compare_sessions(*SessionIndex::build(a), *SessionIndex::build(b));
  ASSERT_FALSE(c.breaks.empty());
  const BreakDiff* branch = nullptr;
  for (const BreakDiff& d : c.breaks)
    if (d.category == "data_dependent_branch") branch = &d;
  ASSERT_TRUE(branch);
  EXPECT_EQ(branch->loc.line, 68);
  EXPECT_EQ(branch->count_a, 4u);
  EXPECT_EQ(branch->count_b, 14u);
  // train(16) reaches the step-10 logging breaks; train(6) does not.
  bool item_only_b = false;
  for (const BreakDiff& d : c.breaks)
    if (d.category == "item") item_only_b = d.presence == Presence::OnlyB;
  EXPECT_TRUE(item_only_b);
  EXPECT_EQ(c.a.graphs, 18u);
  EXPECT_EQ(c.b.graphs, 23u);
}

}  // namespace
}  // namespace kiln::inspect

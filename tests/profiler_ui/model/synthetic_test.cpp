// Hand-built event lists with exact expected arithmetic: time split, break
// gaps, payback, GB/s, timeline level of detail, filters and sorting.
#include <gtest/gtest.h>

#include <cmath>

#include "profiler_ui/model/analysis.h"
#include "profiler_ui/model/table_filter.h"
#include "profiler_ui/model/table_sort.h"

namespace kiln::inspect {
namespace {

using trace::Category;
using trace::Event;
using trace::EventKind;

// Builds a session: strings are interned by text, events appended in order.
class Builder {
 public:
  trace::StrId id(const std::string& s) {
    for (size_t i = 0; i < strings_.size(); ++i)
      if (strings_[i] == s) return trace::StrId(i);
    strings_.push_back(s);
    return trace::StrId(strings_.size() - 1);
  }
  Event& add(EventKind kind, Category cat, const std::string& name, int64_t ts, int64_t dur = 0, uint32_t tid = 1) {
    Event e;
    e.kind = kind;
    e.cat = cat;
    e.name = id(name);
    e.ts_ns = ts;
    e.dur_ns = dur;
    e.tid = tid;
    events_.push_back(e);
    return events_.back();
  }
  std::shared_ptr<const Session> session(std::string source = {}) {
    SessionInfo info;
    info.script_path = "s.py";
    info.source_text = std::move(source);
    return Session::from_events(info, events_, strings_);
  }

 private:
  std::vector<std::string> strings_{""};
  std::vector<Event> events_;
};

// One region compiled at 100..300 (graph 1: "%1 = add" then "%2 = relu" on
// line 3), run twice as fused_add_relu (50 ns each), with the same ops run
// eagerly before (add 400 ns, relu 200 ns), and a break at 1000 with the
// next compiled run at 1600.
std::shared_ptr<const Session> small_session() {
  Builder b;
  b.add(EventKind::Span, Category::interpreter, "<module>", 0, 2000);
  b.add(EventKind::Kernel, Category::kernel, "add", 10, 400);
  b.add(EventKind::Kernel, Category::kernel, "relu", 20, 200);
  Event& c = b.add(EventKind::Span, Category::compile, "compile loop at s.py:2 in f", 100, 150);
  c.graph_id = 1;
  Event& g = b.add(EventKind::Log, Category::jit, "graph", 250);
  g.graph_id = 1;
  g.text = b.id("graph(%0: f32[4]):\n  %1: f32[4] = add(%0, %0)   # s.py:3:5\n  %2: f32[4] = relu(%1)   # s.py:3:9\n"
                "  return (%2)\n");
  Event& cg = b.add(EventKind::Span, Category::compile, "codegen graph 1", 250, 50);
  cg.graph_id = 1;
  cg.text = b.id("kernel fused_add_relu [2 nodes, 1 stores]\n");
  Event& k1 = b.add(EventKind::Kernel, Category::kernel, "fused_add_relu", 400, 50);
  k1.a = 1000;
  k1.b = 500;
  k1.c = 100;
  Event& br = b.add(EventKind::GraphBreak, Category::jit, "graph_break", 1000);
  br.detail = b.id("item");
  br.text = b.id("a Python float needs the value now");
  br.loc = {b.id("s.py"), 4, 1};
  br.stack = b.id("f (s.py:4)");
  Event& k2 = b.add(EventKind::Kernel, Category::kernel, "fused_add_relu", 1600, 50);
  k2.a = 1000;
  k2.b = 500;
  k2.c = 100;
  return b.session("import torch\ndef f(x):\n    y = (x + x).relu()\n    return y.item()\n");
}

TEST(Synthetic, TimeSplitAddsUp) {
  auto a = analyze(small_session());
  const Summary& s = a->summary;
  EXPECT_EQ(s.duration_ns, 2000);
  EXPECT_EQ(s.compiling_ns, 200);  // union of [100,250) and [250,300)
  EXPECT_EQ(s.compiled_ns, 100);   // two fused runs
  EXPECT_EQ(s.interpreter_ns, 1700);
  EXPECT_EQ(s.eager_kernel_ns, 600);
  EXPECT_EQ(s.graphs, 1u);
  EXPECT_EQ(s.kernel_calls, 4u);
}

TEST(Synthetic, BreakTimeLostRunsToTheNextCompiledActivity) {
  auto a = analyze(small_session());
  ASSERT_EQ(a->breaks.size(), 1u);
  const BreakRow& r = a->breaks[0];
  EXPECT_EQ(r.time_lost_ns, 600);  // 1000 -> the fused kernel at 1600
  EXPECT_EQ(r.source_line, "    return y.item()");
  EXPECT_EQ(r.graphs_before, std::vector<uint64_t>({1}));
  EXPECT_EQ(r.graphs_after, std::vector<uint64_t>({1}));
  EXPECT_EQ(r.stack, "f (s.py:4)");
}

TEST(Synthetic, PaybackArithmetic) {
  // 1000 ns compile, saves 600 - 50 = 550 ns per run: 2 runs to break even.
  PaybackRow r = payback_of(1000, 2, 50, 600);
  EXPECT_DOUBLE_EQ(r.saved_ns_per_run, 550);
  EXPECT_DOUBLE_EQ(r.saved_ns, 1100);
  EXPECT_EQ(r.calls_to_break_even, 2);
  EXPECT_TRUE(r.paid_off);
  PaybackRow slower = payback_of(1000, 5, 700, 600);
  EXPECT_EQ(slower.calls_to_break_even, -1);
  EXPECT_FALSE(slower.paid_off);
  PaybackRow tiny = payback_of(1000, 1, 0, 1e-300);
  EXPECT_EQ(tiny.calls_to_break_even, INT64_MAX);
  // On the session: compile 150 + codegen 50, eager estimate add 400 + relu 200, compiled 50 per run.
  auto a = analyze(small_session());
  ASSERT_EQ(a->payback.size(), 1u);
  const PaybackRow& g = a->payback[0];
  EXPECT_EQ(g.compile_ns, 200);
  EXPECT_EQ(g.runs, 2u);
  EXPECT_DOUBLE_EQ(g.compiled_ns_per_run, 50);
  EXPECT_DOUBLE_EQ(g.interpreted_ns_per_run, 600);
  EXPECT_EQ(g.estimated_nodes, 2u);
  EXPECT_EQ(g.calls_to_break_even, 1);
  EXPECT_TRUE(g.paid_off);
}

TEST(Synthetic, KernelThroughput) {
  EXPECT_DOUBLE_EQ(gigabytes_per_second(3000, 100), 30.0);  // 3000 B in 100 ns = 30 GB/s
  EXPECT_EQ(gigabytes_per_second(5, 0), 0);
  auto idx = SessionIndex::build(small_session());
  auto rows = kernel_stats(*idx, KernelStatsOptions{60.0});
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[0].name, "add");
  const KernelRow& f = rows[2];
  EXPECT_EQ(f.name, "fused_add_relu");
  EXPECT_EQ(f.calls, 2u);
  EXPECT_EQ(f.total_ns, 100);
  EXPECT_EQ(f.bytes, 3000u);
  EXPECT_DOUBLE_EQ(f.gb_per_s, 30.0);
  EXPECT_DOUBLE_EQ(f.percent_of_bandwidth, 50.0);
  EXPECT_DOUBLE_EQ(f.gflop_per_s, 2.0);
  EXPECT_DOUBLE_EQ(f.percent_of_run, 5.0);
  ASSERT_EQ(f.nodes.size(), 2u);
  EXPECT_EQ(f.nodes[0], (KernelNodeRef{1, 0}));
  EXPECT_EQ(f.nodes[1], (KernelNodeRef{1, 1}));
  Provenance p = Provenance::build(*idx);
  ASSERT_EQ(p.of_kernel("fused_add_relu").lines.size(), 1u);
  EXPECT_EQ(p.of_kernel("fused_add_relu").lines[0].str(), "s.py:3");
  EXPECT_EQ(p.of_line("s.py", 3).kernels, std::vector<std::string>({"fused_add_relu"}));
}

// 100 back-to-back 10 ns kernels at 0..1000 on the interpreter.
std::shared_ptr<const Timeline> comb_timeline() {
  Builder b;
  for (int i = 0; i < 100; ++i) b.add(EventKind::Kernel, Category::kernel, "k", i * 10, 10);
  return Timeline::build(*SessionIndex::build(b.session()));
}

TEST(Synthetic, LodMergesSubPixelRuns) {
  auto t = comb_timeline();
  // 1000 ns on 10 px: 100 ns per pixel; every kernel is sub-pixel and touching, so one merged item.
  TimelineView v = t->query(0, 1000, 10);
  ASSERT_EQ(v.lanes.size(), 1u);
  ASSERT_EQ(v.lanes[0].items.size(), 1u);
  EXPECT_EQ(v.lanes[0].items[0].count, 100u);
  EXPECT_EQ(v.lanes[0].items[0].start_ns, 0);
  EXPECT_EQ(v.lanes[0].items[0].end_ns, 1000);
  EXPECT_FLOAT_EQ(v.lanes[0].items[0].x1, 10.0f);
  // 1000 ns on 1000 px: each kernel is 10 px wide, nothing merges.
  v = t->query(0, 1000, 1000);
  ASSERT_EQ(v.lanes[0].items.size(), 100u);
  EXPECT_EQ(v.lanes[0].items[37].count, 1u);
  EXPECT_FLOAT_EQ(v.lanes[0].items[37].x0, 370.0f);
  // Zoomed to [200, 300): only kernels 19..30 touch the range (culling).
  v = t->query(200, 300, 100);
  ASSERT_EQ(v.lanes[0].items.size(), 12u);
  EXPECT_EQ(v.lanes[0].items.front().start_ns, 190);
  EXPECT_EQ(v.lanes[0].items.back().start_ns, 300);
}

TEST(Synthetic, LodKeepsGapsWiderThanAPixel) {
  Builder b;
  // Two clusters of tiny kernels separated by a 500 ns hole.
  for (int i = 0; i < 10; ++i) b.add(EventKind::Kernel, Category::kernel, "k", i * 2, 1);
  for (int i = 0; i < 10; ++i) b.add(EventKind::Kernel, Category::kernel, "k", 520 + i * 2, 1);
  auto t = Timeline::build(*SessionIndex::build(b.session()));
  TimelineView v = t->query(0, 540, 54);  // 10 ns per pixel
  ASSERT_EQ(v.lanes[0].items.size(), 2u);
  EXPECT_EQ(v.lanes[0].items[0].count, 10u);
  EXPECT_EQ(v.lanes[0].items[0].end_ns, 19);
  EXPECT_EQ(v.lanes[0].items[1].start_ns, 520);
  EXPECT_EQ(v.lanes[0].items[1].count, 10u);
}

TEST(Synthetic, NestingAndPartialOverlapGetSeparateDepths) {
  Builder b;
  b.add(EventKind::Span, Category::interpreter, "outer", 0, 100);
  b.add(EventKind::Span, Category::interpreter, "inner", 10, 20);
  b.add(EventKind::Span, Category::interpreter, "overlap", 50, 100);  // starts inside outer, ends after it
  b.add(EventKind::Span, Category::compile, "compile f", 200, 50, 2);
  b.add(EventKind::Span, Category::compile, "llvm jit", 210, 10, 2);
  b.add(EventKind::Kernel, Category::kernel, "k", 0, 10, 3);
  b.add(EventKind::GpuKernel, Category::gpu, "gemm", 5, 10, 7).device = 1;
  auto t = Timeline::build(*SessionIndex::build(b.session()));
  ASSERT_EQ(t->lanes().size(), 4u);
  EXPECT_EQ(t->lanes()[3].name, "GPU 0 stream 7");
  EXPECT_EQ(t->lanes()[3].kind, LaneKind::GpuStream);
  EXPECT_EQ(t->lanes()[0].name, "interpreter");
  EXPECT_EQ(t->lanes()[0].depths, 2);
  EXPECT_EQ(t->lanes()[1].name, "compiler");
  EXPECT_EQ(t->lanes()[1].depths, 2);
  EXPECT_EQ(t->lanes()[2].name, "worker 3");
  TimelineView v = t->query(0, 300, 3000);
  ASSERT_EQ(v.lanes[0].items.size(), 3u);
  EXPECT_EQ(v.lanes[0].items[0].depth, 0);
  EXPECT_EQ(v.lanes[0].items[1].depth, 1);  // inner and overlap share depth 1: they are disjoint
  EXPECT_EQ(v.lanes[0].items[2].depth, 1);
  EXPECT_EQ(t->event_at(0, 1, 60).value(), 2u);
  EXPECT_EQ(t->event_at(0, 0, 60).value(), 0u);
  EXPECT_FALSE(t->event_at(0, 1, 40).has_value());
  RangeStats rs = t->range_stats(0, 100);
  EXPECT_EQ(rs.events, 5u);
  ASSERT_FALSE(rs.by_name.empty());
  EXPECT_EQ(rs.by_name[0].name, "outer");
  EXPECT_EQ(rs.by_name[0].ns, 100);
}

TEST(Synthetic, MarkersMergeWithinAPixel) {
  Builder b;
  b.add(EventKind::Span, Category::interpreter, "<module>", 0, 1000);
  for (int i = 0; i < 5; ++i) b.add(EventKind::GraphBreak, Category::jit, "graph_break", 100 + i);
  b.add(EventKind::GraphBreak, Category::jit, "graph_break", 900);
  b.add(EventKind::Recompile, Category::jit, "recompile", 101);
  auto t = Timeline::build(*SessionIndex::build(b.session()));
  TimelineView v = t->query(0, 1000, 100);  // 10 ns per pixel
  ASSERT_EQ(v.markers.size(), 3u);
  EXPECT_EQ(v.markers[0].kind, MarkerKind::GraphBreak);
  EXPECT_EQ(v.markers[0].count, 5u);
  EXPECT_EQ(v.markers[1].count, 1u);
  EXPECT_EQ(v.markers[2].kind, MarkerKind::Recompile);
  // Gaps: each break's gap ends at the next break (no compiled activity), the last at the session end.
  TimelineView fine = t->query(0, 1000, 100000);
  ASSERT_EQ(fine.gaps.size(), 6u);
  EXPECT_EQ(fine.gaps[4].start_ns, 104);
  EXPECT_EQ(fine.gaps[4].end_ns, 900);
  EXPECT_EQ(fine.gaps[5].end_ns, 1000);
}

TEST(Synthetic, EmptySessionAnalyzes) {
  auto a = analyze(Session::from_events({}, {}, {}));
  EXPECT_EQ(a->summary.duration_ns, 0);
  EXPECT_TRUE(a->timeline->lanes().empty());
  EXPECT_EQ(a->timeline->query(0, 0, 0).item_count(), 0u);
}

TEST(TableFilter, WordsAndExclusions) {
  TextFilter f("RELU -backward");
  EXPECT_TRUE(f.matches({"fused_add_relu", "cpu"}));
  EXPECT_FALSE(f.matches({"relu_backward"}));
  EXPECT_FALSE(f.matches({"add"}));
  EXPECT_TRUE(TextFilter("").matches({"anything"}));
  EXPECT_TRUE(TextFilter("a b").matches({"xa", "yb"}));  // words may match different fields
  BreakRow r;
  r.category = "item";
  r.loc = SourceLoc{"s.py", 80, 0};
  EXPECT_TRUE(break_matches(r, TextFilter("s.py:80")));
  EXPECT_FALSE(break_matches(r, TextFilter("tolist")));
}

TEST(TableSort, ByColumnBothWays) {
  std::vector<KernelRow> rows(3);
  rows[0].name = "b", rows[0].total_ns = 5, rows[0].calls = 1;
  rows[1].name = "a", rows[1].total_ns = 9, rows[1].calls = 1;
  rows[2].name = "c", rows[2].total_ns = 1, rows[2].calls = 7;
  sort_rows(rows, int(KernelColumn::Name), true, kernel_sort_key);
  EXPECT_EQ(rows[0].name + rows[1].name + rows[2].name, "abc");
  sort_rows(rows, int(KernelColumn::Total), false, kernel_sort_key);
  EXPECT_EQ(rows[0].name + rows[1].name + rows[2].name, "abc");
  sort_rows(rows, int(KernelColumn::Calls), false, kernel_sort_key);
  EXPECT_EQ(rows[0].name, "c");
  EXPECT_EQ(rows[1].name, "a");  // stable: ties keep the previous order
}

TEST(GraphIr, ParsesNodesPlansAndLocations) {
  auto nodes = parse_graph_ir(
      "graph(%0: f32[8]):\n"
      "  %1: f32[8] strides=[1], %2: f32[8] = split(%0, split_size=4)  # a:b.py:7:3\n"
      "  %3: b8[8] = where.self(%1, %2)\n"
      "  return (%3)\n");
  ASSERT_EQ(nodes.size(), 2u);
  EXPECT_EQ(nodes[0].value, "%1");
  EXPECT_EQ(nodes[0].op, "split");
  EXPECT_EQ(nodes[0].loc.file, "a:b.py");
  EXPECT_EQ(nodes[0].loc.line, 7);
  EXPECT_EQ(nodes[0].loc.col, 3);
  EXPECT_FALSE(nodes[1].loc.known());
  EXPECT_EQ(nodes_of_fused_kernel("fused_split_where_self", nodes), std::vector<int>({0, 1}));
  EXPECT_EQ(nodes_of_fused_kernel("add", nodes), std::vector<int>());
  auto plan = parse_fusion_plan("kernel fused_a_b [2 nodes, 1 stores]\neager mm (rebound)\njunk\n");
  ASSERT_EQ(plan.size(), 2u);
  EXPECT_TRUE(plan[0].fused);
  EXPECT_EQ(plan[0].nodes, 2);
  EXPECT_EQ(plan[0].stores, 1);
  EXPECT_EQ(plan[1].kernel, "mm");
  EXPECT_FALSE(plan[1].fused);
  // The hash ignores locations and spacing, not ops.
  EXPECT_EQ(graph_ir_hash("  %1 = add(%0)   # x.py:1:1\n"), graph_ir_hash("%1 = add(%0) # y.py:9:9\n"));
  EXPECT_NE(graph_ir_hash("%1 = add(%0)\n"), graph_ir_hash("%1 = mul(%0)\n"));
  EXPECT_EQ(parse_source_loc("f.py:12").line, 12);
  EXPECT_FALSE(parse_source_loc("f.py:x").known());
}

}  // namespace
}  // namespace kiln::inspect

namespace kiln::inspect {
namespace {

TEST(Synthetic, QueryToleratesAbsurdViews) {
  auto t = comb_timeline();
  for (float w : {0.0f, -5.0f, std::nanf(""), 1e30f}) {
    TimelineView v = t->query(INT64_MIN, INT64_MAX, w, std::nanf(""));
    ASSERT_EQ(v.lanes.size(), 1u);
    size_t events = 0;
    for (const DrawItem& d : v.lanes[0].items) events += d.count;
    EXPECT_EQ(events, 100u) << w;  // everything visible, merged, nothing lost
  }
  EXPECT_EQ(t->query(500, 400, 100).item_count(), 2u);  // inverted: [500, 501], touching kernels 49 and 50
  EXPECT_FALSE(t->event_at(0, 0, INT64_MAX, INT64_MAX).has_value());
  EXPECT_EQ(t->range_stats(INT64_MIN, INT64_MAX).events, 100u);
}

}  // namespace
}  // namespace kiln::inspect

namespace kiln::inspect {
namespace {

// small_session() as a current kiln records it: the fused kernels carry graph
// 1, each run is a "run graph 1" span holding an eager mm step (300..400
// around the kernel at 400; 1550..1700 around the one at 1600), the break
// names the graph it cut, and the generated code names its kernel.
std::shared_ptr<const Session> linked_session() {
  Builder b;
  b.add(EventKind::Span, Category::interpreter, "<module>", 0, 2000);
  Event& c = b.add(EventKind::Span, Category::compile, "compile loop at s.py:2 in f", 100, 150);
  c.graph_id = 1;
  Event& g = b.add(EventKind::Log, Category::jit, "graph", 250);
  g.graph_id = 1;
  g.text = b.id("graph(%0: f32[4]):\n  %1: f32[4] = add(%0, %0)   # s.py:3:5\n  %2: f32[4] = relu(%1)   # s.py:3:9\n");
  Event& gl = b.add(EventKind::Log, Category::jit, "guards", 250);
  gl.graph_id = 1;
  gl.text = b.id("input 0: float32[4] cpu, contiguous; add(self) at s.py:3\nstructure: 2 ops, 3 checks\n");
  Event& cg = b.add(EventKind::Span, Category::compile, "codegen graph 1", 250, 50);
  cg.graph_id = 1;
  cg.text = b.id("kernel fused_add_relu [2 nodes, 1 stores]\neager mm\n");
  Event& oc = b.add(EventKind::Log, Category::jit, "output_code", 300);
  oc.detail = b.id("fused_add_relu");
  oc.graph_id = 1;
  oc.text = b.id("; the text no longer needs to start with the kernel's name\n");
  for (int64_t t : {300, 1550}) {
    Event& run = b.add(EventKind::Span, Category::jit, "run graph 1", t, t == 300 ? 200 : 150);
    run.graph_id = 1;
    b.add(EventKind::Kernel, Category::kernel, "mm", t + 10, 80);  // the run's eager step
    Event& k = b.add(EventKind::Kernel, Category::kernel, "fused_add_relu", t == 300 ? 400 : 1600, 50);
    k.graph_id = 1;
  }
  Event& br = b.add(EventKind::GraphBreak, Category::jit, "graph_break", 1000);
  br.graph_id = 1;
  br.detail = b.id("item");
  return b.session();
}

TEST(Synthetic, RecordedRunsMeasureGraphsAndCompiledTime) {
  auto a = analyze(linked_session());
  const GraphInfo* g = a->index->graph(1);
  ASSERT_TRUE(g);
  EXPECT_TRUE(g->runs_measured);
  EXPECT_EQ(g->runs, 2u);
  EXPECT_EQ(g->run_ns, 350);
  EXPECT_EQ(g->kernel_calls, 2u);  // fused kernels only
  EXPECT_EQ(g->kernel_ns, 100);
  // The eager mm steps belong to the runs that hold them.
  size_t mm = 0;
  for (size_t i : a->index->kernels())
    if (a->session->str(a->session->event(i).name) == "mm") {
      ++mm;
      EXPECT_EQ(a->index->kernel_graph(i), 1u);
    }
  EXPECT_EQ(mm, 2u);
  ASSERT_EQ(g->guards.size(), 2u);
  EXPECT_EQ(g->guards[0], "input 0: float32[4] cpu, contiguous; add(self) at s.py:3");
  // Compiled time is the runs (eager mm inside included), the kernels in them counted once.
  EXPECT_EQ(a->summary.compiled_ns, 350);
  EXPECT_EQ(a->summary.interpreter_ns + a->summary.compiled_ns + a->summary.compiling_ns, a->summary.duration_ns);
  ASSERT_EQ(a->payback.size(), 1u);
  EXPECT_TRUE(a->payback[0].runs_measured);
  EXPECT_DOUBLE_EQ(a->payback[0].compiled_ns_per_run, 175);
  // The break's gap ends where the next run starts, before its first kernel.
  ASSERT_EQ(a->breaks.size(), 1u);
  EXPECT_EQ(a->breaks[0].time_lost_ns, 550);  // 1000 -> run at 1550
  EXPECT_EQ(a->breaks[0].graphs_before, std::vector<uint64_t>({1}));
  // The code is found by the name it carries.
  const KernelRow* k = nullptr;
  for (const KernelRow& r : a->kernels)
    if (r.name == "fused_add_relu") k = &r;
  ASSERT_TRUE(k);
  EXPECT_EQ(k->code, "; the text no longer needs to start with the kernel's name\n");
}

// A recorded id wins over compile order: the recompile names graph 1 although
// graph 2 is the next one compiled after it; its region comes from the event
// when no compile span names one.
TEST(Synthetic, RecompileIdsWinOverCompileOrder) {
  Builder b;
  for (uint64_t id : {1, 2}) {
    Event& c = b.add(EventKind::Span, Category::compile, id == 1 ? "codegen graph 1" : "compile other", id * 100, 10);
    c.graph_id = id;
  }
  Event& r = b.add(EventKind::Recompile, Category::jit, "recompile", 50);
  r.graph_id = 1;
  r.stack = b.id("loop at s.py:9 in g");
  r.detail = b.id("expected 4, got 8");
  auto idx = SessionIndex::build(b.session());
  auto rows = recompiles(*idx);
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].graph_id, 1u);
  EXPECT_EQ(rows[0].region, "loop at s.py:9 in g");
  EXPECT_EQ(idx->graph(1)->region, "loop at s.py:9 in g");
  EXPECT_TRUE(idx->graph(1)->after_recompile);
  EXPECT_FALSE(idx->graph(2)->after_recompile);
}

// A recompile storm: recompiles report the cache size before they add a
// graph, so only the guard failure that finds the region's cache full (and
// runs it in the interpreter) shows the limit. The other region filled its
// cache exactly and stopped recompiling: no storm.
TEST(Synthetic, StormFromAGuardFailureAtTheCacheLimit) {
  Builder b;
  auto recompile = [&](const std::string& region, uint64_t entries, int64_t ts) {
    Event& r = b.add(EventKind::Recompile, Category::jit, "recompile", ts);
    r.stack = b.id(region);
    r.a = entries;
  };
  auto guard_fail = [&](const std::string& region, uint64_t entries, int64_t ts) {
    Event& g = b.add(EventKind::GuardFail, Category::jit, "guard_fail", ts);
    g.stack = b.id(region);
    g.a = entries;
  };
  for (uint64_t n : {1, 2}) {
    guard_fail("loop at s.py:4 in f", n, int64_t(n) * 10);
    recompile("loop at s.py:4 in f", n, int64_t(n) * 10 + 1);
    guard_fail("g at s.py:9", n, int64_t(n) * 10 + 2);
    recompile("g at s.py:9", n, int64_t(n) * 10 + 3);
  }
  guard_fail("loop at s.py:4 in f", 3, 40);  // the cache holds 3: nothing compiles
  auto rows = recompiles(*SessionIndex::build(b.session()), RecompileOptions{3});
  ASSERT_EQ(rows.size(), 4u);
  for (const RecompileRow& r : rows) EXPECT_EQ(r.storm, r.region == "loop at s.py:4 in f") << r.region;
}

}  // namespace
}  // namespace kiln::inspect

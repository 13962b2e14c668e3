// The links kiln records between events (graph ids on fused kernels, breaks
// and recompiles; "run graph N" spans; guard lists; output_code named after
// its kernel; the Chrome JSON's kiln_session) as the model reads them, and
// the inference it falls back on for recordings made before them
// (fixtures *.before_links.*: the same run as graph_breaks_short, recorded
// by an earlier kiln).
#include <gtest/gtest.h>

#include <algorithm>

#include "fixture_util.h"

namespace kiln::inspect {
namespace {

using trace::EventKind;

// The same session without what newer kilns record: graph ids off kernels,
// breaks and recompiles; run spans and guard lists unnamed (kept, so event
// indices stay the same); no output_code names or recompile regions.
std::shared_ptr<const Session> without_links(const Session& s) {
  std::vector<trace::Event> events;
  std::vector<std::string> strings;
  for (size_t i = 0; i < s.string_count(); ++i) strings.emplace_back(s.str(trace::StrId(i)));
  s.for_each_event([&](size_t, const trace::Event& e) {
    std::string_view name = s.str(e.name);
    trace::Event c = e;
    if (name.substr(0, 10) == "run graph " || (e.kind == EventKind::Log && name == "guards")) c.name = 0;
    if (e.kind == EventKind::Kernel || e.kind == EventKind::GraphBreak || e.kind == EventKind::Recompile) c.graph_id = 0;
    if (e.kind == EventKind::Recompile || (e.kind == EventKind::Log && name == "output_code")) c.stack = c.detail = 0;
    if (e.kind == EventKind::Recompile) c.detail = e.detail;  // "expected X, got Y" stays
    events.push_back(c);
  });
  return Session::from_events(s.info(), std::move(events), std::move(strings));
}

class RecordedLinks : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { a_ = testing::analyze_fixture("graph_breaks_demo.kilntrace"); }
  static void TearDownTestSuite() { a_.reset(); }
  void SetUp() override { ASSERT_TRUE(a_); }
  static std::shared_ptr<const Analysis> a_;
};
std::shared_ptr<const Analysis> RecordedLinks::a_;

TEST_F(RecordedLinks, EveryFusedKernelNamesAGraphWhosePlanListsIt) {
  const Session& s = *a_->session;
  size_t fused = 0;
  for (size_t i : a_->index->kernels()) {
    const trace::Event& e = s.event(i);
    std::string name(s.str(e.name));
    if (!is_fused_kernel_name(name)) continue;
    ++fused;
    ASSERT_NE(e.graph_id, 0u) << name;
    EXPECT_EQ(a_->index->kernel_graph(i), e.graph_id);
    const GraphInfo* g = a_->index->graph(e.graph_id);
    ASSERT_TRUE(g) << e.graph_id;
    EXPECT_TRUE(std::any_of(g->plan.begin(), g->plan.end(),
                            [&](const FusedGroup& fg) { return fg.fused && fg.kernel == name; }))
        << name << " is not in graph " << g->id << "'s plan";
  }
  EXPECT_GT(fused, 100u);
}

// An oracle for the fallback: inference over the same session with the ids
// stripped, against the graph the runtime named. It can only go wrong where
// several graphs' plans list the same kernel name: it picks the latest one
// compiled, while an earlier graph may still run (here graph 7's
// fused_add_relu, run twice after graph 10 compiled one of that name).
TEST_F(RecordedLinks, NameAndCompileOrderInferenceAgreesWithRecordedIds) {
  auto stripped = SessionIndex::build(without_links(*a_->session));
  ASSERT_EQ(stripped->kernels(), a_->index->kernels());  // same events, same order
  auto graphs_listing = [&](std::string_view kernel) {
    size_t n = 0;
    for (const GraphInfo& g : a_->index->graphs())
      n += std::any_of(g.plan.begin(), g.plan.end(), [&](const FusedGroup& fg) { return fg.kernel == kernel; });
    return n;
  };
  size_t checked = 0, wrong = 0;
  for (size_t i : a_->index->kernels()) {
    const trace::Event& e = a_->session->event(i);
    if (e.graph_id == 0) continue;
    ++checked;
    if (stripped->kernel_graph(i) == e.graph_id) continue;
    ++wrong;
    EXPECT_GE(graphs_listing(a_->session->str(e.name)), 2u) << a_->session->str(e.name);
    EXPECT_EQ(a_->session->str(e.name), "fused_add_relu");
    EXPECT_EQ(e.graph_id, 7u);
    EXPECT_EQ(stripped->kernel_graph(i), 10u);
  }
  EXPECT_GT(checked, 100u);
  EXPECT_EQ(wrong, 2u);
  // What inference cannot know: runs. It counts calls of a graph's busiest kernel.
  EXPECT_FALSE(stripped->graph(10)->runs_measured);
  EXPECT_EQ(stripped->graph(10)->runs, 56u);  // 14 runs x Adam's kernel once per parameter
  EXPECT_EQ(a_->index->graph(10)->runs, 14u);
}

TEST_F(RecordedLinks, RunsAreMeasuredAndCountAsCompiledTime) {
  EXPECT_FALSE(a_->index->graph_runs().empty());
  uint64_t runs = 0;
  for (const GraphInfo& g : a_->index->graphs()) {
    runs += g.runs;
    if (!g.runs_measured) continue;
    EXPECT_GT(g.run_ns, 0) << g.id;
    EXPECT_LE(g.kernel_ns, g.run_ns) << g.id;  // its fused kernels run inside its runs
  }
  EXPECT_EQ(runs, a_->index->graph_runs().size());
  // Compiled time covers whole runs (eager steps such as mm included), so it
  // exceeds the fused kernels' time alone.
  int64_t fused_ns = 0;
  for (const GraphInfo& g : a_->index->graphs()) fused_ns += g.kernel_ns;
  EXPECT_GT(a_->summary.compiled_ns, fused_ns);
}

TEST_F(RecordedLinks, EveryGraphHasItsGuardList) {
  for (const GraphInfo& g : a_->index->graphs()) {
    ASSERT_FALSE(g.guards.empty()) << g.id;
    EXPECT_EQ(g.guards.back().rfind("structure: ", 0), 0u) << g.guards.back();
  }
  // Graph 1 is `relu` in nn.ReLU: one tensor input, checked by dtype, sizes and layout.
  const GraphInfo* g1 = a_->index->graph(1);
  ASSERT_EQ(g1->guards.size(), 2u);
  EXPECT_EQ(g1->guards[0], "input 0: float32[64, 32] cpu, contiguous, requires_grad; relu(self) at <prelude>/nn.py:553");
  EXPECT_EQ(g1->guards[1].rfind("structure: 1 ops, ", 0), 0u) << g1->guards[1];
}

TEST_F(RecordedLinks, RecompilesAndBreaksNameTheirGraphs) {
  const Session& s = *a_->session;
  ASSERT_EQ(a_->recompiles.size(), 3u);
  for (const RecompileRow& r : a_->recompiles) {
    const trace::Event& e = s.event(r.event);
    EXPECT_EQ(r.graph_id, e.graph_id);
    const GraphInfo* g = a_->index->graph(r.graph_id);
    ASSERT_TRUE(g) << r.graph_id;
    EXPECT_TRUE(g->after_recompile);
    EXPECT_EQ(r.region, s.str(e.stack));  // the event's region is its graph's
    EXPECT_EQ(g->region, r.region);
    EXPECT_GE(g->compile_ts_ns, r.ts_ns);
  }
  size_t named = 0;
  for (size_t i : a_->index->breaks()) {
    uint64_t cut = s.event(i).graph_id;
    if (cut == 0) continue;  // the graph before it ran uncompiled
    ++named;
    EXPECT_TRUE(a_->index->graph(cut)) << cut;
  }
  EXPECT_GT(named, 40u);
}

TEST_F(RecordedLinks, GeneratedCodeIsFoundByTheKernelNameItCarries) {
  const Session& s = *a_->session;
  ASSERT_FALSE(a_->index->output_code().empty());
  for (size_t i : a_->index->output_code()) {
    const trace::Event& e = s.event(i);
    EXPECT_EQ(s.str(e.text).rfind("kernel " + std::string(s.str(e.detail)) + " ", 0), 0u) << s.str(e.detail);
    EXPECT_TRUE(a_->index->graph(e.graph_id)) << e.graph_id;
  }
  for (const KernelRow& k : a_->kernels)
    if (k.fused) {
      EXPECT_EQ(k.code.rfind("kernel " + k.name + " ", 0), 0u) << k.name;
    }
}

TEST(RecordedLinksJson, ChromeJsonCarriesTheSessionPlansAndIds) {
  auto k = testing::load_fixture("graph_breaks_short.kilntrace");
  auto j = testing::load_fixture("graph_breaks_short.json");
  ASSERT_TRUE(k && j);
  // kiln_session: the source, argv and version the .kilntrace handshake has.
  EXPECT_EQ(j->info().script_path, k->info().script_path);
  EXPECT_EQ(j->info().source_text, k->info().source_text);
  EXPECT_NE(j->info().source_text.find("best = train(6)"), std::string::npos);
  EXPECT_EQ(j->info().argv, k->info().argv);
  EXPECT_EQ(j->info().kiln_version, k->info().kiln_version);
  EXPECT_EQ(j->info().start_wall_ns, k->info().start_wall_ns);
  auto ki = SessionIndex::build(k), ji = SessionIndex::build(j);
  ASSERT_EQ(ki->graphs().size(), ji->graphs().size());
  for (size_t g = 0; g < ki->graphs().size(); ++g) {
    const GraphInfo &a = ki->graphs()[g], &b = ji->graphs()[g];
    EXPECT_EQ(a.plan_text, b.plan_text) << a.id;  // fused groups, from the codegen span's text
    EXPECT_FALSE(b.plan.empty()) << b.id;
    EXPECT_EQ(a.guards, b.guards) << a.id;
    EXPECT_EQ(a.runs, b.runs) << a.id;
    EXPECT_EQ(a.kernel_calls, b.kernel_calls) << a.id;
  }
  // Source lines for breaks now come with JSON sessions too.
  auto breaks = graph_breaks(*ji);
  ASSERT_FALSE(breaks.empty());
  for (const BreakRow& r : breaks)
    if (r.loc.file == j->info().script_path) {
      EXPECT_FALSE(r.source_line.empty()) << r.loc.str();
    }
}

TEST(RecordedLinksJson, RecompileRegionsAndOutputCodeNamesSurviveJson) {
  auto k = testing::analyze_fixture("graph_breaks_short.kilntrace");
  auto j = testing::analyze_fixture("graph_breaks_short.json");
  ASSERT_TRUE(k && j);
  ASSERT_EQ(k->recompiles.size(), j->recompiles.size());
  for (size_t i = 0; i < k->recompiles.size(); ++i) {
    EXPECT_EQ(k->recompiles[i].graph_id, j->recompiles[i].graph_id);
    EXPECT_EQ(k->recompiles[i].region, j->recompiles[i].region);
  }
  ASSERT_EQ(k->index->output_code().size(), j->index->output_code().size());
  for (size_t i = 0; i < k->index->output_code().size(); ++i) {
    const trace::Event& a = k->session->event(k->index->output_code()[i]);
    const trace::Event& b = j->session->event(j->index->output_code()[i]);
    EXPECT_EQ(k->session->str(a.detail), j->session->str(b.detail));
    EXPECT_EQ(a.graph_id, b.graph_id);
  }
}

// Recordings made before the runtime recorded these links still load, and the
// model infers what it can: every fused kernel attributed, runs estimated.
TEST(RecordedLinksFallback, OlderRecordingsAreInferred) {
  for (const char* name : {"graph_breaks_short.before_links.kilntrace", "graph_breaks_short.before_links.json"}) {
    SCOPED_TRACE(name);
    auto a = testing::analyze_fixture(name);
    ASSERT_TRUE(a);
    EXPECT_EQ(a->summary.graphs, 18u);  // the same run as graph_breaks_short
    EXPECT_EQ(a->summary.graph_breaks, 19u);
    EXPECT_TRUE(a->index->graph_runs().empty());
    for (const GraphInfo& g : a->index->graphs()) {
      EXPECT_FALSE(g.runs_measured) << g.id;
      EXPECT_TRUE(g.guards.empty()) << g.id;
    }
    size_t fused = 0;
    for (size_t i : a->index->kernels()) {
      if (!is_fused_kernel_name(a->session->str(a->session->event(i).name))) continue;
      ++fused;
      EXPECT_EQ(a->session->event(i).graph_id, 0u);
      EXPECT_NE(a->index->kernel_graph(i), 0u);
    }
    EXPECT_GT(fused, 0u);
    EXPECT_EQ(a->recompiles.size(), 2u);
    for (const RecompileRow& r : a->recompiles) EXPECT_NE(r.graph_id, 0u);  // the next graph compiled
  }
  auto j = testing::load_fixture("graph_breaks_short.before_links.json");
  ASSERT_TRUE(j);
  EXPECT_EQ(j->info().script_path, "samples/graph_breaks_demo.py");  // from the process name
  EXPECT_TRUE(j->info().source_text.empty());
}

}  // namespace
}  // namespace kiln::inspect

// Loading: both formats of one session agree, and every failure is a value
// with a message (never an exception or a crash).
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "fixture_util.h"
#include "profiler_ui/model/summary.h"

namespace kiln::inspect {
namespace {

using testing::read_bytes;

TEST(Load, KilntraceFixtureHasSessionInfo) {
  auto s = testing::load_fixture("graph_breaks_demo.kilntrace");
  ASSERT_TRUE(s);
  EXPECT_EQ(s->info().script_path, "samples/graph_breaks_demo.py");
  EXPECT_EQ(s->info().format, SourceFormat::Kilntrace);
  EXPECT_EQ(s->info().kiln_version, "0.1.0");
  EXPECT_NE(s->info().source_text.find("best = train(16)"), std::string::npos);
  EXPECT_TRUE(s->ended());
  EXPECT_EQ(s->event_count(), 1572u);
  EXPECT_EQ(s->dropped(), 0u);
}

TEST(Load, ChromeJsonAndKilntraceOfOneRunGiveTheSameSummary) {
  auto k = testing::load_fixture("graph_breaks_short.kilntrace");
  auto j = testing::load_fixture("graph_breaks_short.json");
  ASSERT_TRUE(k && j);
  EXPECT_EQ(j->info().format, SourceFormat::ChromeJson);
  EXPECT_EQ(j->info().script_path, "samples/graph_breaks_demo.py");  // from the process name
  EXPECT_EQ(k->event_count(), j->event_count());
  Summary a = summarize(*SessionIndex::build(k)), b = summarize(*SessionIndex::build(j));
  EXPECT_EQ(a.script, b.script);
  EXPECT_EQ(a.duration_ns, b.duration_ns);
  EXPECT_EQ(a.interpreter_ns, b.interpreter_ns);
  EXPECT_EQ(a.compiled_ns, b.compiled_ns);
  EXPECT_EQ(a.compiling_ns, b.compiling_ns);
  EXPECT_EQ(a.graphs, b.graphs);
  EXPECT_EQ(a.graph_breaks, b.graph_breaks);
  EXPECT_EQ(a.graph_break_sites, b.graph_break_sites);
  EXPECT_EQ(a.recompiles, b.recompiles);
  EXPECT_EQ(a.guard_failures, b.guard_failures);
  EXPECT_EQ(a.kernel_calls, b.kernel_calls);
  ASSERT_EQ(a.top_kernels.size(), b.top_kernels.size());
  for (size_t i = 0; i < a.top_kernels.size(); ++i) {
    EXPECT_EQ(a.top_kernels[i].name, b.top_kernels[i].name);
    EXPECT_EQ(a.top_kernels[i].total_ns, b.top_kernels[i].total_ns);
  }
  EXPECT_EQ(a.graphs, 18u);
  EXPECT_EQ(a.graph_breaks, 19u);  // steps 2-5 captured: 4 x 4 every-step breaks, disabled x2, exception
}

TEST(Load, MissingFileIsAnError) {
  LoadResult r = load_file("/nonexistent/dir/x.kilntrace");
  EXPECT_FALSE(r.ok());
  EXPECT_NE(r.error.find("cannot open /nonexistent/dir/x.kilntrace"), std::string::npos) << r.error;
}

TEST(Load, EmptyAndGarbageAreErrors) {
  EXPECT_NE(load_bytes("", "e").error.find("empty"), std::string::npos);
  LoadResult g = load_bytes("hello world", "g.bin");
  EXPECT_FALSE(g.ok());
  EXPECT_NE(g.error.find("not a kiln trace"), std::string::npos) << g.error;
}

TEST(Load, TruncatedKilntraceKeepsEventsBeforeTheCut) {
  std::string bytes = read_bytes(testing::fixture("graph_breaks_short.kilntrace"));
  ASSERT_GT(bytes.size(), 100000u);
  LoadResult r = load_bytes(bytes.substr(0, bytes.size() / 2), "half.kilntrace");
  ASSERT_TRUE(r.ok()) << r.error;
  EXPECT_FALSE(r.session->ended());
  ASSERT_EQ(r.session->load_errors().size(), 1u);
  EXPECT_NE(r.session->load_errors()[0].find("truncated"), std::string::npos) << r.session->load_errors()[0];
  EXPECT_GT(r.session->event_count(), 100u);
  EXPECT_LT(r.session->event_count(), 1000u);
}

TEST(Load, KilntraceCutInsideTheHeaderIsAnError) {
  LoadResult r = load_bytes(std::string("KILNTRC1\x01\x05", 10), "cut.kilntrace");
  EXPECT_FALSE(r.ok());
  EXPECT_NE(r.error.find("cut.kilntrace"), std::string::npos) << r.error;
}

TEST(Load, TruncatedChromeJsonIsRepaired) {
  std::string bytes = read_bytes(testing::fixture("graph_breaks_short.json"));
  LoadResult r = load_bytes(bytes.substr(0, bytes.size() / 2 + 17), "half.json");
  ASSERT_TRUE(r.ok()) << r.error;
  EXPECT_FALSE(r.session->ended());
  ASSERT_FALSE(r.session->load_errors().empty());
  EXPECT_NE(r.session->load_errors()[0].find("cut short"), std::string::npos);
  EXPECT_GT(r.session->event_count(), 100u);
}

TEST(Load, DeeplyNestedJsonIsRefused) {
  std::string deep(100000, '[');
  LoadResult r = load_bytes(deep, "deep.json");
  EXPECT_FALSE(r.ok());
  EXPECT_NE(r.error.find("nested deeper"), std::string::npos) << r.error;
}

TEST(Load, JsonThatIsNotATraceIsAnError) {
  EXPECT_FALSE(load_bytes(R"({"a": 1})", "o.json").ok());
  EXPECT_FALSE(load_bytes(R"({"traceEvents": 3})", "o.json").ok());
  EXPECT_FALSE(load_bytes("[1, 2", "o.json").ok());
}

TEST(Load, ForeignJsonEntriesAreSkippedAndCounted) {
  LoadResult r = load_bytes(
      R"([{"name":"x","cat":"kernel","ph":"X","ts":1.5,"dur":2.25,"pid":1,"tid":1,"args":{"bytes_read":8}},
          {"name":"y","cat":"weird","ph":"X","ts":1,"pid":1,"tid":1},
          {"ph":"X","ts":"not a number"}, 7, null])",
      "mixed.json");
  ASSERT_TRUE(r.ok()) << r.error;
  ASSERT_EQ(r.session->event_count(), 1u);
  const trace::Event& e = r.session->event(0);
  EXPECT_EQ(e.kind, trace::EventKind::Kernel);
  EXPECT_EQ(e.ts_ns, 1500);
  EXPECT_EQ(e.dur_ns, 2250);
  EXPECT_EQ(e.a, 8u);
  EXPECT_EQ(r.session->str(e.name), "x");
  ASSERT_EQ(r.session->load_errors().size(), 1u);
  EXPECT_NE(r.session->load_errors()[0].find("4 trace entries"), std::string::npos) << r.session->load_errors()[0];
}

TEST(Load, HostileTimesAreClamped) {
  LoadResult r = load_bytes(R"([{"name":"a","cat":"interpreter","ph":"X","ts":-1e300,"dur":1e300,"pid":1,"tid":1},
                                {"name":"b","cat":"interpreter","ph":"X","ts":1e300,"dur":-5,"pid":1,"tid":1}])",
                            "times.json");
  ASSERT_TRUE(r.ok()) << r.error;
  EXPECT_EQ(r.session->first_ns(), -kMaxTimeNs);
  EXPECT_EQ(r.session->event(1).dur_ns, 0);
  EXPECT_GE(r.session->duration_ns(), 0);
}

}  // namespace
}  // namespace kiln::inspect

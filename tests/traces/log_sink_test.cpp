// KILN_LOGS: parsing the spec and the exact lines each topic prints.
#include "traces/log_sink.h"

#include <gtest/gtest.h>

#include <sstream>

namespace kiln::trace {
namespace {

uint32_t bit(LogTopic t) { return 1u << static_cast<unsigned>(t); }

TEST(LogSpec, ParsesTopicsVerbosityAndSpaces) {
  LogSpec spec = parse_log_spec("graph_breaks, recompiles,,+perf ");
  EXPECT_EQ(spec.topics, bit(LogTopic::graph_breaks) | bit(LogTopic::recompiles) | bit(LogTopic::perf));
  EXPECT_TRUE(spec.is_verbose(LogTopic::perf));
  EXPECT_FALSE(spec.is_verbose(LogTopic::graph_breaks));
  EXPECT_FALSE(spec.has(LogTopic::guards));
  EXPECT_TRUE(parse_log_spec("").empty());
  EXPECT_TRUE(parse_log_spec(" , ").empty());
}

TEST(LogSpec, AllSelectsEveryTopic) {
  LogSpec spec = parse_log_spec("+all");
  for (LogTopic t : {LogTopic::graph_breaks, LogTopic::recompiles, LogTopic::guards, LogTopic::graph,
                     LogTopic::output_code, LogTopic::perf}) {
    EXPECT_TRUE(spec.has(t)) << log_topic_name(t);
    EXPECT_TRUE(spec.is_verbose(t)) << log_topic_name(t);
  }
  EXPECT_EQ(parse_log_spec("graph_breaks,recompiles,guards,graph,output_code,cache,perf").topics,
            parse_log_spec("all").topics);
}

TEST(LogSpec, UnknownTopicListsTheValidOnes) {
  try {
    parse_log_spec("graph_breaks,dynamo");
    FAIL() << "expected TraceError";
  } catch (const TraceError& e) {
    std::string msg = e.what();
    EXPECT_NE(msg.find("'dynamo'"), std::string::npos) << msg;
    for (const char* name : {"all", "graph_breaks", "recompiles", "guards", "graph", "output_code", "perf"})
      EXPECT_NE(msg.find(name), std::string::npos) << name;
  }
  EXPECT_THROW(parse_log_spec("+"), TraceError);
}

TEST(LogSpec, HelpNamesEveryTopic) {
  std::string help = log_topics_help();
  for (const char* name : {"all", "graph_breaks", "recompiles", "guards", "graph", "output_code", "perf"})
    EXPECT_NE(help.find(std::string("  ") + name + " "), std::string::npos) << name;
}

// Events with their strings, fed to a LogSink.
struct Logged {
  StringTable strings;
  std::vector<Event> events;
  Loc loc{strings.intern("model.py"), 12, 5};

  Event& add(EventKind kind) {
    Event e;
    e.kind = kind;
    e.tid = 1;
    e.loc = loc;
    events.push_back(e);
    return events.back();
  }
  StrId s(std::string_view text) { return strings.intern(text); }

  std::string print(std::string_view spec) {
    std::ostringstream out;
    LogSink sink(parse_log_spec(spec), out);
    sink.on_events(events, strings);
    sink.close();
    return out.str();
  }
};

// A graph break, a recompile, a guard failure, and three logs (one not a topic).
void add_jit_events(Logged& l) {
  Event& b = l.add(EventKind::GraphBreak);
  b.detail = l.s("data-dependent branch");
  b.text = l.s("if x.sum() > 0");
  b.stack = l.s("f:12 <- g:30");
  Event& r = l.add(EventKind::Recompile);
  r.text = l.s("x.shape[0] == 4");
  r.detail = l.s("expected 4, got 8");
  r.a = 2;
  Event& g = l.add(EventKind::GuardFail);
  g.text = l.s("x.dtype == float32");
  g.detail = l.s("expected float32, got float64");
  Event& graph = l.add(EventKind::Log);
  graph.name = l.s("graph");
  graph.graph_id = 3;
  graph.loc = {};
  graph.text = l.s("%0 = add(x, y)\n%1 = relu(%0)\n");
  Event& code = l.add(EventKind::Log);
  code.name = l.s("output_code");
  code.loc = {};
  code.text = l.s("void k() {}");
  Event& other = l.add(EventKind::Log);
  other.name = l.s("chatter");
  other.text = l.s("not a topic");
}

std::string print_jit_events(std::string_view spec) {
  Logged l;
  add_jit_events(l);
  return l.print(spec);
}

TEST(LogSink, GraphBreaksLine) {
  EXPECT_EQ(print_jit_events("graph_breaks"),
            "[kiln graph_breaks] model.py:12:5 data-dependent branch: if x.sum() > 0\n"
            "    user stack: f:12 <- g:30\n");
}

// A loop that breaks at the same place every iteration prints one line, and
// how often it repeated at close; a break elsewhere or for another reason is
// its own line; +graph_breaks prints each occurrence.
TEST(LogSink, RepeatedGraphBreaksPrintOnceThenACount) {
  Logged l;
  auto brk = [&](int32_t line, std::string_view reason) {
    Event& b = l.add(EventKind::GraphBreak);
    b.loc.line = line;
    b.detail = l.s(reason);
    b.text = l.s("x.item()");
  };
  for (int i = 0; i < 3; ++i) brk(12, "item()");
  brk(12, "print()");
  brk(20, "item()");
  EXPECT_EQ(l.print("graph_breaks"),
            "[kiln graph_breaks] model.py:12:5 item(): x.item()\n"
            "[kiln graph_breaks] model.py:12:5 print(): x.item()\n"
            "[kiln graph_breaks] model.py:20:5 item(): x.item()\n"
            "[kiln graph_breaks] model.py:12:5 item(): x.item() (occurred 3 times; +graph_breaks "
            "prints each)\n");
  std::string every = l.print("+graph_breaks");
  size_t lines = 0;
  for (size_t at = every.find("model.py:12:5 item()"); at != std::string::npos;
       at = every.find("model.py:12:5 item()", at + 1))
    ++lines;
  EXPECT_EQ(lines, 3u) << every;
  EXPECT_EQ(every.find("occurred"), std::string::npos) << every;
}

TEST(LogSink, RecompilesAndGuardsLines) {
  EXPECT_EQ(print_jit_events("recompiles"),
            "[kiln recompiles] model.py:12:5 recompiling: guard x.shape[0] == 4 failed "
            "(expected 4, got 8); cache entries: 2\n");
  EXPECT_EQ(print_jit_events("guards"),
            "[kiln guards] model.py:12:5 guard failed: x.dtype == float32 "
            "(expected float32, got float64)\n");
}

TEST(LogSink, GraphAndOutputCodePrintTheirText) {
  EXPECT_EQ(print_jit_events("graph"), "[kiln graph] graph 3\n%0 = add(x, y)\n%1 = relu(%0)\n");
  EXPECT_EQ(print_jit_events("output_code"), "[kiln output_code]\nvoid k() {}\n");
}

TEST(LogSink, UnselectedTopicsPrintNothing) {
  EXPECT_EQ(print_jit_events(""), "");
  EXPECT_EQ(print_jit_events("perf"), "");  // no kernels or spans to summarize
  std::string all = print_jit_events("all");
  EXPECT_NE(all.find("[kiln graph_breaks]"), std::string::npos);
  EXPECT_NE(all.find("[kiln output_code]"), std::string::npos);
  EXPECT_EQ(all.find("not a topic"), std::string::npos);
}

TEST(LogSink, PerfSummarizesKernelsAndSpansAtClose) {
  Logged l;
  for (int i = 0; i < 3; ++i) {
    Event& k = l.add(EventKind::Kernel);
    k.name = l.s("matmul");
    k.dur_ns = 2'000'000;
    k.a = 1'000'000;
    k.c = 2'000'000;
  }
  Event& add = l.add(EventKind::Kernel);
  add.name = l.s("add");
  add.dur_ns = 1'000'000;
  Event& span = l.add(EventKind::Span);
  span.name = l.s("compile");
  span.dur_ns = 5'000'000;
  std::string out = l.print("perf");
  EXPECT_EQ(out.find("Kernel matmul"), std::string::npos);  // not verbose: no per-kernel lines
  size_t kernels = out.find("[kiln perf] kernels by total time (2 names)");
  size_t matmul = out.find("matmul");
  size_t add_row = out.find("add ");
  ASSERT_NE(kernels, std::string::npos) << out;
  EXPECT_LT(matmul, add_row);  // sorted by total time
  EXPECT_NE(out.find("3 calls        6.000 ms   2000.000 us/call"), std::string::npos) << out;
  EXPECT_NE(out.find("0.50 GB/s"), std::string::npos) << out;
  EXPECT_NE(out.find("1.00 GFLOP/s"), std::string::npos) << out;
  EXPECT_NE(out.find("[kiln perf] spans by total time (1 names)"), std::string::npos) << out;

  std::string verbose = l.print("+perf");
  EXPECT_NE(verbose.find("[kiln perf] model.py:12:5 Kernel matmul 2.000 ms 1000000 bytes 2000000 flops\n"),
            std::string::npos)
      << verbose;
}

}  // namespace
}  // namespace kiln::trace

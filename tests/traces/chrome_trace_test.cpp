// Chrome trace export: every event kind, parsed back with nlohmann::json.
#include "traces/chrome_trace.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <cctype>
#include <set>
#include <sstream>

namespace kiln::trace {
namespace {

using nlohmann::json;

std::string temp_path(const std::string& name) {
  return (std::filesystem::temp_directory_path() /
          ("kiln_chrome_" + std::to_string(getpid()) + "_" + name))
      .string();
}

std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

int64_t ns_of(const json& us) { return std::llround(us.get<double>() * 1000); }

// A small trace holding every kind of event.
struct Fixture {
  StringTable strings;
  std::vector<Event> events;

  StrId s(std::string_view text) { return strings.intern(text); }

  Fixture() {
    Loc loc{s("model.py"), 12, 5};
    // Spans on the main thread, recorded child first (as SpanScope does).
    events.push_back(span(Category::compile, "capture", 2'000, 3'000, loc));
    events.push_back(span(Category::compile, "optimize", 5'500, 1'000, {}));
    events.push_back(span(Category::compile, "compile", 1'000, 10'000, loc, /*graph_id=*/9));
    events.back().text = s("kernel fused_add_relu [2 nodes, 1 stores]");
    // A worker thread.
    Event w = span(Category::kernel, "matmul_chunk", 1'500, 700, {});
    w.tid = 2;
    events.push_back(w);
    // A host kernel that launches GPU work (flow 77), and the GPU side.
    Event k;
    k.kind = EventKind::Kernel;
    k.cat = Category::kernel;
    k.tid = 1;
    k.ts_ns = 12'000;
    k.dur_ns = 2'000;
    k.name = s("fused_add_relu");
    k.loc = loc;
    k.graph_id = 9;
    k.flow_id = 77;
    k.a = 4096;
    k.b = 2048;
    k.c = 1024;
    k.text = s("[4, 256]");
    events.push_back(k);
    Event g = k;
    g.kind = EventKind::GpuKernel;
    g.cat = Category::gpu;
    g.device = 1;  // GPU 0
    g.tid = 7;     // stream 7
    g.ts_ns = 15'000;
    g.dur_ns = 1'234'567;
    events.push_back(g);
    Event m;
    m.kind = EventKind::MemCopy;
    m.cat = Category::memory;
    m.device = 1;
    m.tid = 7;
    m.ts_ns = 1'300'000;
    m.dur_ns = 500;
    m.name = s("HtoD");
    m.a = 1 << 20;
    events.push_back(m);
    // Instants.
    Event b = instant(EventKind::GraphBreak, 20'000, loc);
    b.name = s("graph break");
    b.text = s("data-dependent branch: if x.sum() > 0");
    b.detail = s("data_dependent");
    b.stack = s("f:12 <- g:30");
    b.graph_id = 9;
    events.push_back(b);
    Event r = instant(EventKind::Recompile, 21'000, loc);
    r.text = s("x.shape[0] == 4");
    r.detail = s("expected 4, got 8");
    r.a = 2;
    r.graph_id = 10;
    r.stack = s("loop at model.py:3 in f");  // a Recompile's region
    events.push_back(r);
    Event gf = instant(EventKind::GuardFail, 21'000, loc);
    gf.text = s("x.dtype == float32");
    events.push_back(gf);
    Event l = instant(EventKind::Log, 22'000, {});
    l.name = s("output_code");
    l.text = s("void k(float* x) {\n  x[0] = 1;\n}");
    l.detail = s("fused_add_relu");
    l.graph_id = 9;
    events.push_back(l);
    Event c;
    c.kind = EventKind::Counter;
    c.cat = Category::memory;
    c.tid = 1;
    c.ts_ns = 23'000;
    c.name = s("live_tensor_bytes");
    c.value = 123456;
    events.push_back(c);
  }

  Event span(Category cat, std::string_view name, int64_t ts, int64_t dur, Loc loc,
             uint64_t graph_id = 0) {
    Event e;
    e.kind = EventKind::Span;
    e.cat = cat;
    e.tid = 1;
    e.ts_ns = ts;
    e.dur_ns = dur;
    e.name = s(name);
    e.loc = loc;
    e.graph_id = graph_id;
    return e;
  }

  Event instant(EventKind kind, int64_t ts, Loc loc) {
    Event e;
    e.kind = kind;
    e.cat = Category::jit;
    e.tid = 1;
    e.ts_ns = ts;
    e.loc = loc;
    return e;
  }
};

json export_and_parse(const Fixture& f, const std::string& name) {
  std::string path = temp_path(name);
  write_chrome_trace(path, f.events, f.strings);
  json doc = json::parse(read_text(path));
  std::filesystem::remove(path);
  return doc;
}

std::vector<json> with_ph(const json& doc, const std::string& ph) {
  std::vector<json> out;
  for (const json& e : doc)
    if (e["ph"] == ph) out.push_back(e);
  return out;
}

const json* find_named(const json& doc, const std::string& ph, const std::string& name) {
  for (const json& e : doc)
    if (e["ph"] == ph && e["name"] == name) return &e;
  return nullptr;
}

TEST(ChromeTrace, EveryEventHasTheFieldsOfItsPhase) {
  Fixture f;
  json doc = export_and_parse(f, "fields.json");
  ASSERT_TRUE(doc.is_array());
  for (const json& e : doc) {
    SCOPED_TRACE(e.dump());
    for (const char* key : {"name", "ph", "ts", "pid", "tid"}) ASSERT_TRUE(e.contains(key)) << key;
    EXPECT_TRUE(e["name"].is_string());
    EXPECT_TRUE(e["ts"].is_number());
    EXPECT_TRUE(e["pid"].is_number_integer());
    EXPECT_TRUE(e["tid"].is_number_integer());
    std::string ph = e["ph"];
    if (ph == "X") { EXPECT_TRUE(e["dur"].is_number()); }
    if (ph == "i") { EXPECT_EQ(e["s"], "t"); }
    if (ph == "C") { EXPECT_TRUE(e["args"].is_object() && !e["args"].empty()); }
    if (ph == "M") {
      static const std::set<std::string> kNames = {"process_name", "thread_name", "process_sort_index",
                                                   "thread_sort_index", "kiln_session"};
      EXPECT_TRUE(kNames.count(e["name"])) << e["name"];
      EXPECT_TRUE(e["args"].is_object());
    }
    if (ph == "s" || ph == "f") { EXPECT_TRUE(e.contains("id")); }
    EXPECT_TRUE(ph == "X" || ph == "i" || ph == "C" || ph == "M" || ph == "s" || ph == "f") << ph;
  }
  EXPECT_EQ(with_ph(doc, "X").size(), 7u);  // 3 spans, worker span, kernel, GPU kernel, memcpy
  EXPECT_EQ(with_ph(doc, "i").size(), 4u);
  EXPECT_EQ(with_ph(doc, "C").size(), 1u);
}

TEST(ChromeTrace, KindsMapToPhasesWithTheirDetails) {
  Fixture f;
  json doc = export_and_parse(f, "kinds.json");
  const json* compile = find_named(doc, "X", "compile");
  ASSERT_NE(compile, nullptr);
  EXPECT_EQ((*compile)["cat"], "compile");
  EXPECT_EQ((*compile)["args"]["loc"], "model.py:12");
  // Ids and texts go into args, never into names, so same-named spans still merge in flame views.
  EXPECT_EQ((*compile)["args"]["graph_id"], 9);
  EXPECT_EQ((*compile)["args"]["text"], "kernel fused_add_relu [2 nodes, 1 stores]");
  EXPECT_FALSE((*compile)["args"].contains("fused_launches"));  // 0: left out

  const json* kernel = find_named(doc, "X", "fused_add_relu");
  ASSERT_NE(kernel, nullptr);
  EXPECT_EQ((*kernel)["pid"], 1);
  EXPECT_EQ((*kernel)["args"]["bytes_read"], 4096);
  EXPECT_EQ((*kernel)["args"]["bytes_written"], 2048);
  EXPECT_EQ((*kernel)["args"]["flops"], 1024);
  EXPECT_EQ((*kernel)["args"]["shapes"], "[4, 256]");
  EXPECT_EQ((*kernel)["args"]["graph_id"], 9);

  const json* brk = find_named(doc, "i", "graph break");
  ASSERT_NE(brk, nullptr);
  EXPECT_EQ((*brk)["args"]["reason"], "data_dependent");
  EXPECT_EQ((*brk)["args"]["message"], "data-dependent branch: if x.sum() > 0");
  EXPECT_EQ((*brk)["args"]["stack"], "f:12 <- g:30");
  EXPECT_EQ((*brk)["args"]["graph_id"], 9);
  EXPECT_EQ((*brk)["args"]["loc"], "model.py:12");

  const json* rec = find_named(doc, "i", "recompile");
  ASSERT_NE(rec, nullptr);
  EXPECT_EQ((*rec)["args"]["guard"], "x.shape[0] == 4");
  EXPECT_EQ((*rec)["args"]["detail"], "expected 4, got 8");
  EXPECT_EQ((*rec)["args"]["cache_entries"], 2);
  EXPECT_EQ((*rec)["args"]["graph_id"], 10);
  EXPECT_EQ((*rec)["args"]["region"], "loop at model.py:3 in f");
  ASSERT_NE(find_named(doc, "i", "guard_fail"), nullptr);
  EXPECT_FALSE(find_named(doc, "i", "guard_fail")->at("args").contains("region"));
  const json* log = find_named(doc, "i", "output_code");
  ASSERT_NE(log, nullptr);
  EXPECT_EQ((*log)["args"]["text"], "void k(float* x) {\n  x[0] = 1;\n}");
  EXPECT_EQ((*log)["args"]["detail"], "fused_add_relu");
  EXPECT_EQ((*log)["args"]["graph_id"], 9);

  const json* counter = find_named(doc, "C", "live_tensor_bytes");
  ASSERT_NE(counter, nullptr);
  EXPECT_EQ((*counter)["args"]["live_tensor_bytes"], 123456);
}

TEST(ChromeTrace, ProcessesAndThreadsAreNamedAndSorted) {
  Fixture f;
  json doc = export_and_parse(f, "meta.json");
  std::map<std::pair<int, int>, std::string> thread_names;
  std::map<int, std::string> process_names;
  std::map<int, int> process_sort;
  for (const json& e : with_ph(doc, "M")) {
    if (e["name"] == "process_name") process_names[e["pid"]] = e["args"]["name"];
    if (e["name"] == "thread_name") thread_names[{e["pid"], e["tid"]}] = e["args"]["name"];
    if (e["name"] == "process_sort_index") process_sort[e["pid"]] = e["args"]["sort_index"];
  }
  EXPECT_EQ(process_names[1], "kiln");
  EXPECT_EQ(process_names[2], "GPU 0");
  EXPECT_EQ(process_sort[1], 1);
  EXPECT_EQ(process_sort[2], 2);
  EXPECT_EQ((thread_names[{1, 1}]), "interpreter");
  EXPECT_EQ((thread_names[{1, 2}]), "worker 1");
  EXPECT_EQ((thread_names[{2, 7}]), "stream 7");
  // Each process and thread is named exactly once.
  EXPECT_EQ(process_names.size(), 2u);
  EXPECT_EQ(with_ph(doc, "M").size(), 2u * 2 + 3u * 2);
}

TEST(ChromeTrace, CompleteEventsNestStrictlyPerThread) {
  Fixture f;
  json doc = export_and_parse(f, "nest.json");
  std::map<std::pair<int, int>, std::vector<std::pair<int64_t, int64_t>>> by_thread;
  for (const json& e : with_ph(doc, "X")) {
    int64_t ts = ns_of(e["ts"]);
    by_thread[{e["pid"], e["tid"]}].push_back({ts, ts + ns_of(e["dur"])});
  }
  for (auto& [thread, spans] : by_thread) {
    for (auto& [b1, e1] : spans)
      for (auto& [b2, e2] : spans) {
        bool disjoint = e1 <= b2 || e2 <= b1;
        bool nested = (b1 <= b2 && e2 <= e1) || (b2 <= b1 && e1 <= e2);
        EXPECT_TRUE(disjoint || nested) << "[" << b1 << "," << e1 << ") vs [" << b2 << "," << e2 << ")";
      }
  }
  // capture and optimize lie inside compile.
  const json* compile = find_named(doc, "X", "compile");
  const json* capture = find_named(doc, "X", "capture");
  EXPECT_LE(ns_of((*compile)["ts"]), ns_of((*capture)["ts"]));
  EXPECT_LE(ns_of((*capture)["ts"]) + ns_of((*capture)["dur"]),
            ns_of((*compile)["ts"]) + ns_of((*compile)["dur"]));
}

TEST(ChromeTrace, InstantTimestampsAreMonotonePerThread) {
  Fixture f;
  json doc = export_and_parse(f, "mono.json");
  std::map<std::pair<int, int>, int64_t> last;
  for (const json& e : with_ph(doc, "i")) {
    std::pair<int, int> key{e["pid"], e["tid"]};
    int64_t ts = ns_of(e["ts"]);
    if (last.count(key)) { EXPECT_GE(ts, last[key]); }
    last[key] = ts;
  }
  EXPECT_FALSE(last.empty());
}

TEST(ChromeTrace, TimesAreMicrosecondsWithThreeDecimals) {
  Fixture f;
  std::string path = temp_path("decimals.json");
  write_chrome_trace(path, f.events, f.strings);
  std::string text = read_text(path);
  std::filesystem::remove(path);
  // Every "ts": and "dur": value is digits, a point, and exactly three digits.
  // (Scanned by hand: <regex> trips GCC 12's -Wmaybe-uninitialized under ASan.)
  int seen = 0;
  for (const char* key : {"\"ts\":", "\"dur\":"}) {
    for (size_t at = text.find(key); at != std::string::npos; at = text.find(key, at + 1), ++seen) {
      size_t i = at + std::string(key).size();
      if (text[i] == '-') ++i;
      size_t int_digits = 0, frac_digits = 0;
      while (std::isdigit(static_cast<unsigned char>(text[i]))) ++i, ++int_digits;
      bool point = text[i] == '.';
      if (point) ++i;
      while (std::isdigit(static_cast<unsigned char>(text[i]))) ++i, ++frac_digits;
      EXPECT_TRUE(int_digits > 0 && point && frac_digits == 3) << text.substr(at, i - at);
    }
  }
  EXPECT_GT(seen, 20);
  EXPECT_NE(text.find(R"("ts":15.000,"pid":2,"tid":7,"dur":1234.567)"), std::string::npos);
}

TEST(ChromeTrace, FlowLinksTheLaunchToTheGpuKernel) {
  Fixture f;
  json doc = export_and_parse(f, "flow.json");
  auto starts = with_ph(doc, "s");
  auto finishes = with_ph(doc, "f");
  ASSERT_EQ(starts.size(), 1u);
  ASSERT_EQ(finishes.size(), 1u);
  EXPECT_EQ(starts[0]["id"], 77);
  EXPECT_EQ(finishes[0]["id"], 77);
  EXPECT_EQ(starts[0]["cat"], finishes[0]["cat"]);
  EXPECT_EQ(starts[0]["pid"], 1);
  EXPECT_EQ(finishes[0]["pid"], 2);
  EXPECT_EQ(finishes[0]["bp"], "e");
  EXPECT_FALSE(starts[0].contains("bp"));
  // Each end lies inside its slice, so importers bind it there.
  const json* launch = find_named(doc, "X", "fused_add_relu");
  int64_t s = ns_of(starts[0]["ts"]), b = ns_of((*launch)["ts"]);
  EXPECT_TRUE(s >= b && s <= b + ns_of((*launch)["dur"]));
}

TEST(ChromeTrace, TruncatedFileParsesOnceClosed) {
  Fixture f;
  std::string path = temp_path("truncated.json");
  write_chrome_trace(path, f.events, f.strings);
  std::string text = read_text(path);
  std::filesystem::remove(path);
  std::vector<std::string> lines;
  std::stringstream ss(text);
  for (std::string line; std::getline(ss, line);) lines.push_back(line);
  ASSERT_GT(lines.size(), 10u);
  // A crash can cut the file after any line; "]" makes it whole again.
  std::string prefix;
  for (size_t k = 0; k + 1 < lines.size(); ++k) {
    prefix += lines[k] + "\n";
    json doc;
    ASSERT_NO_THROW(doc = json::parse(prefix + "]")) << "cut after line " << k + 1;
    EXPECT_EQ(doc.size(), k);  // line 0 is "["; one event per line after it
  }
}

TEST(ChromeTrace, StringsAreEscaped) {
  StringTable strings;
  const std::string nasty = "say \"hi\"\\ back\nslash/ tab\t bell\x01 caf\xc3\xa9 \xe2\x9c\x93 \xf0\x9f\x94\xa5";
  Event e;
  e.kind = EventKind::Log;
  e.tid = 1;
  e.name = strings.intern(nasty);
  e.text = strings.intern(std::string("bad utf8 \xff\xfe end") + '\0' + "after nul");
  e.loc = Loc{strings.intern("dir \"q\"/m.py"), 3, 1};
  std::string path = temp_path("escape.json");
  write_chrome_trace(path, std::span(&e, 1), strings);
  ChromeTraceSink named(temp_path("escape2.json"), "my \"model\".py");
  named.on_events(std::span(&e, 1), strings);
  named.close();
  json doc = json::parse(read_text(path));
  json doc2 = json::parse(read_text(temp_path("escape2.json")));
  std::filesystem::remove(path);
  std::filesystem::remove(temp_path("escape2.json"));
  const json* log = find_named(doc, "i", nasty);
  ASSERT_NE(log, nullptr);
  EXPECT_EQ((*log)["args"]["loc"], "dir \"q\"/m.py:3");
  EXPECT_EQ((*log)["args"]["text"], std::string("bad utf8 \xef\xbf\xbd\xef\xbf\xbd end") + '\0' + "after nul");
  EXPECT_EQ(find_named(doc2, "M", "process_name")->at("args")["name"], "kiln: my \"model\".py");
}

TEST(ChromeTrace, NonFiniteCounterValuesStayValidJson) {
  StringTable strings;
  Event c;
  c.kind = EventKind::Counter;
  c.tid = 1;
  c.value = std::nan("");
  std::string path = temp_path("nan.json");
  write_chrome_trace(path, std::span(&c, 1), strings);
  json doc = json::parse(read_text(path));
  std::filesystem::remove(path);
  EXPECT_EQ(with_ph(doc, "C").at(0)["args"]["value"], 0);
}

TEST(ChromeTrace, UnwritablePathIsAnError) {
  try {
    ChromeTraceSink sink("/nonexistent-dir/t.json", "m.py");
    FAIL() << "expected TraceError";
  } catch (const TraceError& e) {
    EXPECT_NE(std::string(e.what()).find("/nonexistent-dir/t.json"), std::string::npos);
  }
}

TEST(ChromeTrace, ASessionStreamsToTheFileAndFlushMakesItReadable) {
  std::string path = temp_path("session.json");
  Session& s = Session::start({.script_path = "m.py"});
  s.add_sink(std::make_unique<ChromeTraceSink>(path, "m.py"));
  static InternedName kStep("step");
  for (int i = 0; i < 3; ++i) {
    SpanScope outer(Category::interpreter, kStep);
    SpanScope inner(Category::kernel, s.strings().intern("add"));
  }
  s.flush();  // what a runner does when the script raises
  json partial = json::parse(read_text(path) + "]");
  EXPECT_EQ(with_ph(partial, "X").size(), 6u);
  Session::stop();
  json doc = json::parse(read_text(path));
  std::filesystem::remove(path);
  EXPECT_EQ(with_ph(doc, "X").size(), 6u);
  EXPECT_EQ(find_named(doc, "M", "process_name")->at("args")["name"], "kiln: m.py");
  EXPECT_EQ(find_named(doc, "X", "step")->at("tid"), 1);
}

TEST(ChromeTrace, GraphRunSpansCarryTheirCounts) {
  StringTable strings;
  Event run;
  run.kind = EventKind::Span;
  run.cat = Category::jit;
  run.tid = 1;
  run.dur_ns = 5'000;
  run.name = strings.intern("run graph 3");
  run.graph_id = 3;
  run.a = 4;  // fused kernels launched
  run.b = 2;  // eager steps
  std::string path = temp_path("run.json");
  write_chrome_trace(path, std::span<const Event>(&run, 1), strings);
  json doc = json::parse(read_text(path));
  std::filesystem::remove(path);
  const json* x = find_named(doc, "X", "run graph 3");
  ASSERT_NE(x, nullptr);
  EXPECT_EQ((*x)["args"]["graph_id"], 3);
  EXPECT_EQ((*x)["args"]["fused_launches"], 4);
  EXPECT_EQ((*x)["args"]["eager_steps"], 2);
  EXPECT_EQ(find_named(doc, "M", "kiln_session"), nullptr);  // bare events: no session to describe
}

// The runner names only the script; the running session supplies the rest.
TEST(ChromeTrace, TheSessionIsMetadataWithSourceArgvAndVersion) {
  std::string path = temp_path("session_meta.json");
  Session& s = Session::start({.script_path = "m.py",
                               .argv = {"m.py", "--steps", "3"},
                               .kiln_version = "9.8.7",
                               .source_text = "import torch\nx = \"\\u00e9\"\n"});
  s.add_sink(std::make_unique<ChromeTraceSink>(path, "m.py"));
  Session::stop();
  json doc = json::parse(read_text(path));
  std::filesystem::remove(path);
  ASSERT_FALSE(doc.empty());
  EXPECT_EQ(doc[0]["name"], "kiln_session");  // first, so a reader has it before any event
  EXPECT_EQ(doc[0]["ph"], "M");
  EXPECT_EQ(doc[0]["pid"], 1);
  const json& args = doc[0]["args"];
  EXPECT_EQ(args["script"], "m.py");
  EXPECT_EQ(args["argv"], json({"m.py", "--steps", "3"}));
  EXPECT_EQ(args["kiln_version"], "9.8.7");
  EXPECT_EQ(args["source"], "import torch\nx = \"\\u00e9\"\n");
  EXPECT_GT(args["start_unix_ns"].get<int64_t>(), 0);  // Session::start fills it
}

TEST(ChromeTrace, ASinkMadeFromSessionInfoNeedsNoRunningSession) {
  std::string path = temp_path("info_meta.json");
  {
    ChromeTraceSink sink(path, SessionInfo{.script_path = "a.py", .argv = {}, .kiln_version = "1.0.0",
                                           .source_text = "pass\n", .start_wall_ns = 42});
    sink.close();
  }
  json doc = json::parse(read_text(path));
  std::filesystem::remove(path);
  const json* meta = find_named(doc, "M", "kiln_session");
  ASSERT_NE(meta, nullptr);
  EXPECT_EQ((*meta)["args"]["script"], "a.py");
  EXPECT_EQ((*meta)["args"]["argv"], json::array());
  EXPECT_EQ((*meta)["args"]["source"], "pass\n");
  EXPECT_EQ((*meta)["args"]["start_unix_ns"], 42);
}

}  // namespace
}  // namespace kiln::trace

// kiln_trace_check: end-to-end checks of what `kiln run` exports.
//   kiln_trace_check chrome FILE [--jit]           a Chrome trace with interpreter spans, kernels
//                                                  and the session (source, argv, version)
//   kiln_trace_check kilntrace FILE SCRIPT [--jit] a .kilntrace recording of SCRIPT that ends cleanly
// With --jit both also check the JIT's links between events (check_graph_links):
// the same rules on the same events, whichever sink wrote them.
//   kiln_trace_check stream KILN SCRIPT    listens on loopback, runs KILN run --stream, reads it all
// Exits 0 when every check holds, else prints what failed and exits 1.
#include <spawn.h>
#include <sys/wait.h>

#include <fstream>
#include <iostream>
#include <map>
#include <optional>
#include <algorithm>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "traces/reader.h"

extern char** environ;

namespace {

using json = nlohmann::json;

int fail(const std::string& msg) {
  std::cerr << "trace check failed: " << msg << "\n";
  return 1;
}

// ---------------------------------------------------------------------------
// The JIT's links, on events read back from either format.

// What the link checks need of one event.
struct Ev {
  std::string kind;  // "span", "kernel", "break", "recompile", "log", "other"
  std::string name, region, detail;
  uint64_t graph_id = 0;
  double ts = 0, end = 0;  // microseconds
  int64_t thread = 0;      // pid << 32 | tid
};

bool starts_with(const std::string& s, const std::string& p) { return s.rfind(p, 0) == 0; }

// Every fused kernel names its graph and runs inside that graph's "run graph
// N" span on its thread; every graph compiled has a guard list; a recompile
// names the graph compiled next in its region; a failed guard names a region
// graphs were compiled for; a break names a graph that ran; output_code logs
// name their kernel and graph.
int check_graph_links(const std::vector<Ev>& evs) {
  std::map<uint64_t, std::string> compiled;  // graph id -> region, from "compile <region>" spans
  std::map<uint64_t, double> compile_ts;
  std::set<uint64_t> guarded, ran;
  std::map<int64_t, std::vector<const Ev*>> runs;  // per thread
  for (const Ev& e : evs) {
    if (e.kind == "span" && starts_with(e.name, "compile ") && e.graph_id != 0) {
      compiled[e.graph_id] = e.name.substr(8);
      compile_ts[e.graph_id] = e.ts;
    }
    if (e.kind == "log" && e.name == "guards" && e.graph_id != 0 && !e.detail.empty()) guarded.insert(e.graph_id);
    if (e.kind == "span" && starts_with(e.name, "run graph ")) {
      if (e.name != "run graph " + std::to_string(e.graph_id)) return fail("'" + e.name + "' carries graph_id " + std::to_string(e.graph_id));
      runs[e.thread].push_back(&e);
      ran.insert(e.graph_id);
    }
  }
  if (compiled.empty()) return fail("no compile spans with a graph_id");
  if (ran.empty()) return fail("no 'run graph N' spans");
  for (auto& [id, region] : compiled)
    if (!guarded.count(id)) return fail("graph " + std::to_string(id) + " has no 'guards' log");
  size_t fused = 0, recompiles = 0, breaks = 0, code = 0;
  for (const Ev& e : evs) {
    std::string what = "'" + e.name + "' at " + std::to_string(e.ts) + " us";
    if (e.kind == "kernel" && starts_with(e.name, "fused_")) {
      ++fused;
      if (!compiled.count(e.graph_id)) return fail(what + " names no compiled graph (graph_id " + std::to_string(e.graph_id) + ")");
      bool inside = false;
      for (const Ev* r : runs[e.thread])
        inside = inside || (r->graph_id == e.graph_id && r->ts <= e.ts + 0.001 && e.end <= r->end + 0.001);
      if (!inside) return fail(what + " is not inside a 'run graph " + std::to_string(e.graph_id) + "' span");
    } else if (e.kind == "recompile") {
      ++recompiles;
      auto it = compiled.find(e.graph_id);
      if (it == compiled.end() || it->second != e.region || compile_ts[e.graph_id] < e.ts)
        return fail(what + " names graph " + std::to_string(e.graph_id) + " in '" + e.region +
                    "', which is not the next graph compiled in that region");
    } else if (e.kind == "guard_fail") {
      bool known = false;
      for (auto& [id, region] : compiled) known = known || region == e.region;
      if (!known) return fail(what + " names region '" + e.region + "', for which no graph was compiled");
    } else if (e.kind == "break") {
      ++breaks;
      if (e.graph_id != 0 && !ran.count(e.graph_id) && !compiled.count(e.graph_id))
        return fail(what + " names graph " + std::to_string(e.graph_id) + ", which never existed");
    } else if (e.kind == "log" && e.name == "output_code") {
      ++code;
      if (e.detail.empty() || !compiled.count(e.graph_id)) return fail(what + " lacks its kernel's name or graph");
    }
  }
  if (fused == 0) return fail("no fused kernels");
  if (code == 0) return fail("no output_code logs (run with KILN_CACHE_DIR= so kernels compile)");
  std::cout << compiled.size() << " graphs, " << fused << " fused kernels, " << recompiles << " recompiles, "
            << breaks << " breaks linked\n";
  return 0;
}

Ev ev_of_json(const json& e) {
  Ev v;
  const json& args = e.contains("args") && e["args"].is_object() ? e["args"] : json::object();
  auto str = [&](const char* k) { return args.contains(k) && args[k].is_string() ? args[k].get<std::string>() : ""; };
  std::string ph = e.value("ph", ""), cat = e.value("cat", "");
  v.name = e.value("name", "");
  v.kind = ph == "X" ? (cat == "kernel" ? "kernel" : "span")
           : ph != "i" ? "other"
           : args.contains("reason") ? "break"
           : v.name == "recompile" ? "recompile" : v.name == "guard_fail" ? "guard_fail" : "log";
  v.graph_id = args.value("graph_id", uint64_t(0));
  v.region = str("region");
  v.detail = v.name == "guards" ? str("text") : str("detail");
  v.ts = e.value("ts", 0.0);
  v.end = v.ts + e.value("dur", 0.0);
  v.thread = e.value("pid", int64_t(0)) << 32 | e.value("tid", int64_t(0));
  return v;
}

Ev ev_of_event(const kiln::trace::Event& e, const kiln::trace::StringTable& s) {
  using kiln::trace::EventKind;
  Ev v;
  v.name = std::string(s.str(e.name));
  v.kind = e.kind == EventKind::Span ? "span" : e.kind == EventKind::Kernel ? "kernel"
           : e.kind == EventKind::GraphBreak ? "break" : e.kind == EventKind::Recompile ? "recompile"
           : e.kind == EventKind::GuardFail ? "guard_fail" : e.kind == EventKind::Log ? "log" : "other";
  v.graph_id = e.graph_id;
  v.region = e.kind == EventKind::Recompile || e.kind == EventKind::GuardFail ? std::string(s.str(e.stack)) : "";
  v.detail = std::string(s.str(v.name == "guards" ? e.text : e.detail));
  v.ts = double(e.ts_ns) / 1000;
  v.end = double(e.ts_ns + e.dur_ns) / 1000;
  v.thread = int64_t(e.device + 1) << 32 | e.tid;
  return v;
}

// The kiln_session metadata: the session as the .kilntrace handshake has it.
int check_session_meta(const json& events) {
  if (events.empty() || events[0].value("name", "") != "kiln_session" || events[0].value("ph", "") != "M")
    return fail("the file does not open with the kiln_session metadata event");
  const json& a = events[0]["args"];
  if (!a.is_object() || a.value("source", "").empty() || a.value("script", "").empty() ||
      a.value("kiln_version", "").empty() || !a.contains("argv") || !a["argv"].is_array())
    return fail("kiln_session lacks the script, its source, argv or the version: " + a.dump().substr(0, 200));
  return 0;
}

// Every X event lies within the X events that contain its start, per thread.
bool x_events_nest(const json& events, std::string& why) {
  std::map<std::pair<int, int>, std::vector<std::pair<double, double>>> by_thread;
  for (const json& e : events)
    if (e["ph"] == "X") by_thread[{e["pid"].get<int>(), e["tid"].get<int>()}].push_back({e["ts"], e["dur"]});
  for (auto& [key, spans] : by_thread) {
    std::sort(spans.begin(), spans.end(), [](auto& a, auto& b) {
      return a.first != b.first ? a.first < b.first : a.second > b.second;
    });
    std::vector<double> open_ends;
    for (auto& [ts, dur] : spans) {
      while (!open_ends.empty() && open_ends.back() <= ts) open_ends.pop_back();
      double end = ts + dur;
      // Timestamps carry three decimals: allow a rounding nanosecond.
      if (!open_ends.empty() && end > open_ends.back() + 0.002) {
        why = "an X event at ts " + std::to_string(ts) + " ends after its parent";
        return false;
      }
      open_ends.push_back(end);
    }
  }
  return true;
}

int check_chrome(const std::string& path, bool link_checks) {
  std::ifstream f(path);
  if (!f) return fail("cannot open " + path);
  json events;
  try {
    events = json::parse(f);
  } catch (const std::exception& e) {
    return fail(std::string("not valid JSON: ") + e.what());
  }
  if (!events.is_array()) return fail("not the JSON array form");
  std::set<std::string> cats;
  bool named_interpreter = false;
  size_t memory_samples = 0;
  for (const json& e : events) {
    for (const char* k : {"name", "ph", "ts", "pid", "tid"})
      if (!e.contains(k)) return fail(std::string("an event lacks '") + k + "': " + e.dump());
    if (e["ph"] == "X" && !e.contains("dur")) return fail("an X event lacks dur: " + e.dump());
    if (e["ph"] == "X") cats.insert(e["cat"].get<std::string>());
    if (e["ph"] == "M" && e["name"] == "thread_name" && e["args"]["name"] == "interpreter") named_interpreter = true;
    if (e["ph"] == "C" && e["name"] == "live tensor bytes") {
      const json& args = e["args"];
      if (args.size() != 1) return fail("a memory counter sample without exactly one value: " + e.dump());
      const json& v = *args.begin();
      if (!v.is_number() || v.get<double>() < 0) return fail("a bad memory counter sample: " + e.dump());
      ++memory_samples;
    }
  }
  if (memory_samples == 0) return fail("no 'live tensor bytes' counter samples");
  if (!cats.count("interpreter")) return fail("no interpreter spans");
  if (!cats.count("kernel")) return fail("no kernel events");
  if (!named_interpreter) return fail("no thread is named 'interpreter'");
  std::string why;
  if (!x_events_nest(events, why)) return fail(why);
  if (int rc = check_session_meta(events)) return rc;
  std::vector<Ev> evs;
  for (const json& e : events) evs.push_back(ev_of_json(e));
  if (link_checks)
    if (int rc = check_graph_links(evs)) return rc;
  std::cout << events.size() << " events\n";
  return 0;
}

// Reads a whole trace; checks it names the script, carries its source and ends
// (and, with link_checks, check_graph_links).
int check_reader(kiln::trace::TraceReader& r, const std::string& script, bool link_checks) {
  using kiln::trace::ReadResult;
  size_t events = 0;
  std::vector<Ev> evs;
  for (;;) {
    ReadResult res = r.poll(std::chrono::milliseconds(20000));
    if (res == ReadResult::Events) {
      events += r.events().size();
      for (const kiln::trace::Event& e : r.events()) evs.push_back(ev_of_event(e, r.strings()));
    }
    if (res == ReadResult::End) break;
    if (res == ReadResult::Pending) return fail("timed out waiting for the end of the trace");
  }
  if (r.session().script_path != script) return fail("session names '" + r.session().script_path + "'");
  if (r.session().source_text.empty()) return fail("the session carries no source text");
  if (events == 0) return fail("no events");
  if (link_checks)
    if (int rc = check_graph_links(evs)) return rc;
  std::cout << events << " events\n";
  return 0;
}

int check_kilntrace(const std::string& path, const std::string& script, bool link_checks) {
  try {
    kiln::trace::TraceReader r = kiln::trace::TraceReader::open_file(path);
    return check_reader(r, script, link_checks);
  } catch (const std::exception& e) {
    return fail(e.what());
  }
}

int check_stream(const std::string& kiln, const std::string& script) {
  try {
    auto listener = kiln::trace::TraceListener::listen("127.0.0.1", 0, false);
    std::string addr = "127.0.0.1:" + std::to_string(listener.port());
    std::vector<std::string> args{kiln, "run", "--stream", addr, "--stream-wait=5", script};
    std::vector<char*> argv;
    for (std::string& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    pid_t pid;
    if (posix_spawn(&pid, kiln.c_str(), nullptr, nullptr, argv.data(), environ) != 0) return fail("cannot start kiln");
    std::optional<kiln::trace::TraceReader> r = listener.accept(std::chrono::milliseconds(20000));
    int rc = r ? check_reader(*r, script, false) : fail("kiln never connected");  // links: see kilntrace
    int status = 0;
    waitpid(pid, &status, 0);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) return fail("kiln run --stream did not exit 0");
    return rc;
  } catch (const std::exception& e) {
    return fail(e.what());
  }
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> a(argv + 1, argv + argc);
  bool jit = !a.empty() && a.back() == "--jit";
  if (jit) a.pop_back();
  if (a.size() == 2 && a[0] == "chrome") return check_chrome(a[1], jit);
  if (a.size() == 3 && a[0] == "kilntrace") return check_kilntrace(a[1], a[2], jit);
  if (a.size() == 3 && a[0] == "stream") return check_stream(a[1], a[2]);
  std::cerr << "usage: kiln_trace_check chrome FILE [--jit] | kilntrace FILE SCRIPT [--jit] | stream KILN SCRIPT\n";
  return 2;
}

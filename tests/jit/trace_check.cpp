// kiln_trace_check: end-to-end checks of what `kiln run` exports.
//   kiln_trace_check chrome FILE           a Chrome trace with interpreter spans and kernels
//   kiln_trace_check kilntrace FILE SCRIPT a .kilntrace recording of SCRIPT that ends cleanly
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

int check_chrome(const std::string& path) {
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
  std::cout << events.size() << " events\n";
  return 0;
}

// Reads a whole trace; checks it names the script, carries its source and ends.
int check_reader(kiln::trace::TraceReader& r, const std::string& script) {
  using kiln::trace::ReadResult;
  size_t events = 0;
  for (;;) {
    ReadResult res = r.poll(std::chrono::milliseconds(20000));
    if (res == ReadResult::Events) events += r.events().size();
    if (res == ReadResult::End) break;
    if (res == ReadResult::Pending) return fail("timed out waiting for the end of the trace");
  }
  if (r.session().script_path != script) return fail("session names '" + r.session().script_path + "'");
  if (r.session().source_text.empty()) return fail("the session carries no source text");
  if (events == 0) return fail("no events");
  std::cout << events << " events\n";
  return 0;
}

int check_kilntrace(const std::string& path, const std::string& script) {
  try {
    kiln::trace::TraceReader r = kiln::trace::TraceReader::open_file(path);
    return check_reader(r, script);
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
    int rc = r ? check_reader(*r, script) : fail("kiln never connected");
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
  if (a.size() == 2 && a[0] == "chrome") return check_chrome(a[1]);
  if (a.size() == 3 && a[0] == "kilntrace") return check_kilntrace(a[1], a[2]);
  if (a.size() == 3 && a[0] == "stream") return check_stream(a[1], a[2]);
  std::cerr << "usage: kiln_trace_check chrome FILE | kilntrace FILE SCRIPT | stream KILN SCRIPT\n";
  return 2;
}

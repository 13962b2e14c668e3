// Loads a Chrome trace JSON array written by `kiln run --trace` back into
// events (the inverse of traces/chrome_trace.cpp's mapping). Events of other
// shapes (flows, unknown phases, wrong field types) are skipped and counted;
// a file cut short by a crash is repaired the way chrome_trace.h promises
// (drop the partial last line, append "]"). The kiln_session metadata event
// gives the session info (source, argv, version); files written before it
// existed name only the script, in the process name.
#include <cmath>
#include <unordered_map>

#include <nlohmann/json.hpp>

#include "profiler_ui/model/load_kilntrace.h"

namespace kiln::inspect {

namespace {

using nlohmann::json;

// nlohmann's parser recurses per nesting level: refuse deep nesting up front
// so a hostile file cannot exhaust the stack. kiln writes depth 4 (kiln_session's argv).
constexpr int kMaxJsonDepth = 32;

bool nesting_ok(const std::string& s) {
  int depth = 0;
  bool in_string = false;
  for (size_t i = 0; i < s.size(); ++i) {
    char c = s[i];
    if (in_string) {
      if (c == '\\') ++i;
      else if (c == '"') in_string = false;
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      if (++depth > kMaxJsonDepth) return false;
    } else if (c == ']' || c == '}') {
      --depth;
    }
  }
  return true;
}

// Typed field readers: absent or wrongly typed fields read as the default.
std::string str_field(const json& o, const char* key) {
  auto it = o.find(key);
  return it != o.end() && it->is_string() ? it->get<std::string>() : std::string();
}
double num_field(const json& o, const char* key, double def = 0) {
  auto it = o.find(key);
  if (it == o.end() || !it->is_number()) return def;
  double v = it->get<double>();
  return std::isfinite(v) ? v : def;
}
uint64_t u64_field(const json& o, const char* key) {
  auto it = o.find(key);
  if (it == o.end()) return 0;
  if (it->is_number_unsigned()) return it->get<uint64_t>();
  if (it->is_number_integer()) return uint64_t(std::max<int64_t>(0, it->get<int64_t>()));
  return 0;
}
// Microseconds (kiln writes 3 decimals) to clamped nanoseconds.
int64_t us_to_ns(double us) {
  double ns = std::clamp(us * 1000.0, -double(kMaxTimeNs), double(kMaxTimeNs));
  return std::llround(ns);
}

bool parse_category(std::string_view s, trace::Category& out) {
#define KILN_CATEGORY_MATCH(c)                \
  if (s == #c) {                              \
    out = trace::Category::c;                 \
    return true;                              \
  }
  KILN_EVENT_CATEGORIES(KILN_CATEGORY_MATCH)
#undef KILN_CATEGORY_MATCH
  return false;
}

class JsonLoader {
 public:
  explicit JsonLoader(const std::string& name) { info_.origin = name; info_.format = SourceFormat::ChromeJson; }

  void load(const json& array) {
    for (const json& ev : array) {
      if (!ev.is_object() || !add(ev)) ++skipped_;
    }
  }

  std::shared_ptr<const Session> finish(std::vector<std::string> errors, bool ended) {
    if (skipped_ > 0)
      errors.push_back(info_.origin + ": " + std::to_string(skipped_) +
                       " trace entries were not kiln events (flows, unknown phases or malformed) and were skipped");
    b_.set_info(info_);
    for (auto& e : errors) b_.add_load_error(std::move(e));
    b_.set_ended(ended);
    return b_.publish();
  }

 private:
  trace::StrId intern(const std::string& s) {
    if (s.empty()) return 0;
    auto [it, fresh] = ids_.try_emplace(s, trace::StrId(b_.string_count()));
    if (fresh) b_.add_string(s);
    return it->second;
  }

  // "file:line" -> Loc (the file may itself hold ':').
  trace::Loc loc_of(const std::string& text) {
    trace::Loc loc;
    size_t colon = text.rfind(':');
    if (colon != std::string::npos && colon + 1 < text.size() &&
        text.find_first_not_of("0123456789", colon + 1) == std::string::npos && text.size() - colon <= 10) {
      loc.file = intern(text.substr(0, colon));
      loc.line = int32_t(std::stol(text.substr(colon + 1)));
    } else if (!text.empty()) {
      loc.file = intern(text);
    }
    return loc;
  }

  // One trace entry; false if it is not a kiln event.
  bool add(const json& ev) {
    std::string ph = str_field(ev, "ph"), name = str_field(ev, "name");
    const json empty = json::object();
    auto ait = ev.find("args");
    const json& args = ait != ev.end() && ait->is_object() ? *ait : empty;
    if (ph == "M") {
      if (name == "process_name" && num_field(ev, "pid") == 1 && info_.script_path.empty()) {
        std::string label = str_field(args, "name");
        if (label.rfind("kiln: ", 0) == 0) info_.script_path = label.substr(6);
      }
      if (name == "kiln_session") read_session(args);
      return true;
    }
    if (ph == "s" || ph == "f") return true;  // flow arrows: the model links nothing by them yet
    trace::Event e;
    if (!parse_category(str_field(ev, "cat"), e.cat)) return false;
    double pid = num_field(ev, "pid", 1);
    e.device = uint16_t(std::clamp(pid - 1, 0.0, 65535.0));
    e.tid = uint32_t(std::clamp(num_field(ev, "tid"), 0.0, 4294967295.0));
    e.ts_ns = us_to_ns(num_field(ev, "ts"));
    if (auto it = args.find("loc"); it != args.end() && it->is_string()) e.loc = loc_of(it->get<std::string>());
    if (ph == "X") {
      e.dur_ns = std::max<int64_t>(0, us_to_ns(num_field(ev, "dur")));
      e.kind = e.cat == trace::Category::kernel ? trace::EventKind::Kernel
               : e.cat == trace::Category::gpu  ? trace::EventKind::GpuKernel
               : e.cat == trace::Category::memory ? trace::EventKind::MemCopy
                                                  : trace::EventKind::Span;
      e.a = u64_field(args, "bytes_read");
      e.b = u64_field(args, "bytes_written");
      e.c = u64_field(args, "flops");
      e.graph_id = u64_field(args, "graph_id");
      if (e.kind == trace::EventKind::Span) {
        e.text = intern(str_field(args, "text"));
        e.a = u64_field(args, "fused_launches");
        e.b = u64_field(args, "eager_steps");
      } else {
        e.text = intern(str_field(args, "shapes"));
      }
    } else if (ph == "C") {
      e.kind = trace::EventKind::Counter;
      for (auto it = args.begin(); it != args.end(); ++it)
        if (it->is_number()) {
          e.value = it->get<double>();
          break;
        }
    } else if (ph == "i" || ph == "I") {
      e.graph_id = u64_field(args, "graph_id");
      if (name == "graph_break" || args.contains("reason")) {
        e.kind = trace::EventKind::GraphBreak;
        e.detail = intern(str_field(args, "reason"));
        e.text = intern(str_field(args, "message"));
        e.stack = intern(str_field(args, "stack"));
      } else if (name == "recompile" || name == "guard_fail") {
        e.kind = name == "recompile" ? trace::EventKind::Recompile : trace::EventKind::GuardFail;
        e.text = intern(str_field(args, "guard"));
        e.detail = intern(str_field(args, "detail"));
        e.a = u64_field(args, "cache_entries");
        e.stack = intern(str_field(args, "region"));
      } else {
        e.kind = trace::EventKind::Log;
        e.text = intern(str_field(args, "text"));
        e.detail = intern(str_field(args, "detail"));
      }
    } else {
      return false;
    }
    e.name = intern(name);
    b_.add_event(e);
    return true;
  }

  // The kiln_session metadata (chrome_trace.h); wrongly typed fields read as empty.
  void read_session(const json& args) {
    if (std::string script = str_field(args, "script"); !script.empty()) info_.script_path = script;
    info_.source_text = str_field(args, "source");
    info_.kiln_version = str_field(args, "kiln_version");
    info_.start_wall_ns = int64_t(std::min<uint64_t>(u64_field(args, "start_unix_ns"), uint64_t(INT64_MAX)));
    info_.argv.clear();
    if (auto it = args.find("argv"); it != args.end() && it->is_array())
      for (const json& a : *it)
        if (a.is_string()) info_.argv.push_back(a.get<std::string>());
  }

  SessionBuilder b_;
  SessionInfo info_;
  std::unordered_map<std::string, trace::StrId> ids_;
  size_t skipped_ = 0;
};

}  // namespace

LoadResult load_chrome_json_bytes(const std::string& bytes, const std::string& name) {
  if (!nesting_ok(bytes))
    return {nullptr, name + ": JSON nested deeper than " + std::to_string(kMaxJsonDepth) +
                         " levels: not a trace written by kiln"};
  std::vector<std::string> errors;
  bool ended = true;
  json doc = json::parse(bytes, nullptr, /*allow_exceptions=*/false);
  if (doc.is_discarded()) {
    // A writer that crashed leaves "[\n{...}\n,{...}\n,{partial": cut the partial line, close the array.
    size_t cut = bytes.rfind('\n');
    if (cut != std::string::npos && cut > 0) doc = json::parse(bytes.substr(0, cut) + "\n]", nullptr, false);
    if (doc.is_discarded())
      return {nullptr, name + ": not valid JSON (and not a Chrome trace cut short): open a file written by "
                              "`kiln run --trace FILE`"};
    errors.push_back(name + ": the JSON array is cut short (the writer stopped or crashed); showing the events "
                            "before the cut");
    ended = false;
  }
  const json* events = &doc;
  if (doc.is_object()) {
    auto it = doc.find("traceEvents");
    if (it == doc.end()) return {nullptr, name + ": a JSON object without \"traceEvents\": not a Chrome trace"};
    events = &*it;
  }
  if (!events->is_array()) return {nullptr, name + ": the trace events are not a JSON array: not a Chrome trace"};
  JsonLoader loader(name);
  loader.load(*events);
  return {loader.finish(std::move(errors), ended), {}};
}

}  // namespace kiln::inspect

// Chrome trace writer: formats events as Trace Event Format JSON lines.
// Formatting is by hand (not a JSON library) because a busy trace writes
// millions of events; tests check the output with nlohmann::json.
#include "traces/chrome_trace.h"

#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstring>
#include <type_traits>

namespace kiln::trace {

// ---------------------------------------------------------------------------
// JSON text pieces.

namespace {

// Length of the valid UTF-8 sequence starting at s[i], or 0 if it is invalid
// (overlong forms, surrogates and code points above U+10FFFF included).
size_t utf8_sequence_length(std::string_view s, size_t i) {
  auto byte = [&](size_t k) { return static_cast<unsigned char>(s[k]); };
  unsigned char b0 = byte(i);
  size_t len = b0 < 0x80 ? 1 : (b0 >> 5) == 0x6 ? 2 : (b0 >> 4) == 0xe ? 3 : (b0 >> 3) == 0x1e ? 4 : 0;
  if (len == 0 || i + len > s.size()) return 0;
  for (size_t k = 1; k < len; ++k)
    if ((byte(i + k) & 0xc0) != 0x80) return 0;
  unsigned char b1 = len > 1 ? byte(i + 1) : 0;
  if (len == 2 && b0 < 0xc2) return 0;                   // overlong
  if (len == 3 && b0 == 0xe0 && b1 < 0xa0) return 0;    // overlong
  if (len == 3 && b0 == 0xed && b1 >= 0xa0) return 0;   // UTF-16 surrogate
  if (len == 4 && b0 == 0xf0 && b1 < 0x90) return 0;    // overlong
  if (len == 4 && (b0 > 0xf4 || (b0 == 0xf4 && b1 >= 0x90))) return 0;  // > U+10FFFF
  return len;
}

// Appends s as a JSON string literal. Invalid UTF-8 bytes become U+FFFD so
// the file always parses (user strings can hold arbitrary bytes).
void append_json_string(std::string& out, std::string_view s) {
  out += '"';
  for (size_t i = 0; i < s.size();) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    if (c >= 0x80) {
      size_t len = utf8_sequence_length(s, i);
      if (len == 0) {
        out += "\\ufffd";
        ++i;
      } else {
        out.append(s.substr(i, len));
        i += len;
      }
      continue;
    }
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      case '\b': out += "\\b"; break;
      case '\f': out += "\\f"; break;
      default:
        if (c < 0x20) {
          char hex[8];
          std::snprintf(hex, sizeof hex, "\\u%04x", c);
          out += hex;
        } else {
          out += static_cast<char>(c);
        }
    }
    ++i;
  }
  out += '"';
}

template <typename Int>
void append_int(std::string& out, Int v) {
  char tmp[24];
  auto r = std::to_chars(tmp, tmp + sizeof tmp, v);
  out.append(tmp, r.ptr);
}

// Nanoseconds as microseconds with exactly three decimals: 12345 -> 12.345.
void append_us(std::string& out, int64_t ns) {
  if (ns < 0) {
    out += '-';
    ns = -ns;  // timestamps before the session start are rare but legal
  }
  append_int(out, ns / 1000);
  char frac[4] = {char('0' + ns % 1000 / 100), char('0' + ns % 100 / 10), char('0' + ns % 10), 0};
  out += '.';
  out += frac;
}

// JSON has no NaN or infinity; a counter sampling one is written as 0.
void append_double(std::string& out, double v) {
  if (!std::isfinite(v)) v = 0;
  char tmp[32];
  auto r = std::to_chars(tmp, tmp + sizeof tmp, v);
  out.append(tmp, r.ptr);
}

// Builds one `"args":{...}` object, one field at a time.
class Args {
 public:
  explicit Args(std::string& out) : out_(out) {}
  ~Args() { out_ += first_ ? "{}" : "}"; }
  void str(const char* key, std::string_view v) {
    this->key(key);
    append_json_string(out_, v);
  }
  void str_if(const char* key, StrId id, const StringTable& strings) {
    if (id != 0) str(key, strings.str(id));
  }
  void uint_if(const char* key, uint64_t v) {
    if (v == 0) return;
    this->key(key);
    append_int(out_, v);
  }
  void number(std::string_view key, double v) {
    out_ += first_ ? "{" : ",";
    first_ = false;
    append_json_string(out_, key);
    out_ += ':';
    append_double(out_, v);
  }

 private:
  void key(const char* k) {
    out_ += first_ ? "{\"" : ",\"";
    first_ = false;
    out_ += k;
    out_ += "\":";
  }
  std::string& out_;
  bool first_ = true;
};

// ---------------------------------------------------------------------------
// Event mapping.

int pid_of(const Event& e) { return 1 + e.device; }

bool is_complete(EventKind k) {
  return k == EventKind::Span || k == EventKind::Kernel || k == EventKind::GpuKernel ||
         k == EventKind::MemCopy;
}

// The name an instant shows when the event carries no summary.
const char* default_name(EventKind k) {
  switch (k) {
    case EventKind::GraphBreak: return "graph_break";
    case EventKind::Recompile: return "recompile";
    case EventKind::GuardFail: return "guard_fail";
    case EventKind::Log: return "log";
    case EventKind::Counter: return "counter";
    case EventKind::Kernel:
    case EventKind::GpuKernel: return "kernel";
    case EventKind::MemCopy: return "memcpy";
    case EventKind::Span: return "span";
  }
  return "event";
}

void append_loc(Args& args, const Loc& loc, const StringTable& strings) {
  if (loc.file == 0) return;
  std::string text(strings.str(loc.file));
  if (loc.line > 0) {
    text += ':';  // appends, not ":" + ..., which trips GCC 12's -Wrestrict
    text += std::to_string(loc.line);
  }
  args.str("loc", text);
}

// Kind-specific args (names merge flame views; args never split them).
void append_args(std::string& out, const Event& e, const StringTable& strings) {
  out += ",\"args\":";
  Args args(out);
  if (e.kind == EventKind::Counter) {
    args.number(strings.str(e.name).empty() ? "value" : strings.str(e.name), e.value);
    return;
  }
  append_loc(args, e.loc, strings);
  switch (e.kind) {
    case EventKind::Kernel:
    case EventKind::GpuKernel:
    case EventKind::MemCopy:
      args.uint_if("bytes_read", e.a);
      args.uint_if("bytes_written", e.b);
      args.uint_if("flops", e.c);
      args.str_if("shapes", e.text, strings);
      args.uint_if("graph_id", e.graph_id);
      break;
    case EventKind::GraphBreak:
      args.str_if("reason", e.detail, strings);
      args.str_if("message", e.text, strings);
      args.str_if("stack", e.stack, strings);
      args.uint_if("graph_id", e.graph_id);
      break;
    case EventKind::Recompile:
    case EventKind::GuardFail:
      args.str_if("guard", e.text, strings);
      args.str_if("detail", e.detail, strings);
      args.uint_if("cache_entries", e.a);
      args.uint_if("graph_id", e.graph_id);
      args.str_if("region", e.stack, strings);
      break;
    case EventKind::Log:
      args.str_if("text", e.text, strings);
      args.str_if("detail", e.detail, strings);
      args.uint_if("graph_id", e.graph_id);
      break;
    case EventKind::Span:
      args.str_if("text", e.text, strings);
      args.uint_if("graph_id", e.graph_id);
      args.uint_if("fused_launches", e.a);
      args.uint_if("eager_steps", e.b);
      break;
    case EventKind::Counter:
      break;
  }
}

// "name", "cat", "ph", "ts", "pid", "tid": the fields every event has.
void append_header(std::string& out, std::string_view name, std::string_view cat, const char* ph,
                   int64_t ts_ns, int pid, uint32_t tid) {
  out += "{\"name\":";
  append_json_string(out, name);
  out += ",\"cat\":";
  append_json_string(out, cat);
  out += ",\"ph\":\"";
  out += ph;
  out += "\",\"ts\":";
  append_us(out, ts_ns);
  out += ",\"pid\":";
  append_int(out, pid);
  out += ",\"tid\":";
  append_int(out, tid);
}

std::string thread_label(int pid, uint32_t tid) {
  if (pid > 1) return "stream " + std::to_string(tid);
  if (std::string named = thread_name(tid); !named.empty()) return named;
  if (tid == 1) return "interpreter";
  return "worker " + std::to_string(tid - 1);
}

}  // namespace

// ---------------------------------------------------------------------------
// ChromeTraceSink.

ChromeTraceSink::ChromeTraceSink(std::string path, const SessionInfo& info)
    : path_(std::move(path)), script_(info.script_path) {
  file_ = std::fopen(path_.c_str(), "wb");
  if (file_ == nullptr)
    throw TraceError(std::string("cannot write trace file '").append(path_).append("': ").append(
        std::strerror(errno)));
  std::fputs("[", file_);
  append_session(info);
}

namespace {

// The running session's info under the caller's name for the script.
SessionInfo info_named(std::string script) {
  SessionInfo info = Session::current() ? Session::current()->info() : SessionInfo{};
  info.script_path = std::move(script);
  return info;
}

}  // namespace

ChromeTraceSink::ChromeTraceSink(std::string path, std::string script)
    : ChromeTraceSink(std::move(path), info_named(std::move(script))) {}

ChromeTraceSink::~ChromeTraceSink() {
  try {
    close();
  } catch (const TraceError&) {
    // Destructors must not throw; a caller that cares calls close() itself.
  }
}

void ChromeTraceSink::begin_line() {
  buf_ += first_line_ ? "\n" : "\n,";
  first_line_ = false;
}

void ChromeTraceSink::append_metadata(int pid, uint32_t tid) {
  auto meta = [&](const char* name, const char* key, auto value, uint32_t on_tid) {
    begin_line();
    append_header(buf_, name, "__metadata", "M", 0, pid, on_tid);
    buf_ += ",\"args\":{\"";
    buf_ += key;
    buf_ += "\":";
    if constexpr (std::is_integral_v<decltype(value)>)
      append_int(buf_, value);
    else
      append_json_string(buf_, value);
    buf_ += "}}";
  };
  if (seen_pids_.insert(pid).second) {
    std::string label = pid > 1           ? "GPU " + std::to_string(pid - 2)
                        : script_.empty() ? std::string("kiln")
                                          : "kiln: " + script_;
    meta("process_name", "name", std::string_view(label), 0);
    meta("process_sort_index", "sort_index", pid, 0);
  }
  if (seen_threads_.insert({pid, tid}).second) {
    meta("thread_name", "name", std::string_view(thread_label(pid, tid)), tid);
    meta("thread_sort_index", "sort_index", tid, tid);
  }
}

// The session's identity, so a viewer of the JSON alone can show the script's
// lines (the .kilntrace handshake carries the same SessionInfo). Nothing
// when there is nothing to say (write_chrome_trace of bare events).
void ChromeTraceSink::append_session(const SessionInfo& info) {
  if (info.script_path.empty() && info.argv.empty() && info.kiln_version.empty() && info.source_text.empty()) return;
  begin_line();
  append_header(buf_, "kiln_session", "__metadata", "M", 0, 1, 0);
  buf_ += ",\"args\":{\"script\":";
  append_json_string(buf_, script_);
  buf_ += ",\"argv\":[";
  for (size_t i = 0; i < info.argv.size(); ++i) {
    if (i) buf_ += ',';
    append_json_string(buf_, info.argv[i]);
  }
  buf_ += "],\"kiln_version\":";
  append_json_string(buf_, info.kiln_version);
  buf_ += ",\"start_unix_ns\":";
  append_int(buf_, info.start_wall_ns);
  buf_ += ",\"source\":";
  append_json_string(buf_, info.source_text);
  buf_ += "}}";
}

void ChromeTraceSink::append_event(const Event& e, const StringTable& strings) {
  int pid = pid_of(e);
  append_metadata(pid, e.tid);
  std::string_view name = strings.str(e.name);
  if (name.empty()) name = default_name(e.kind);
  std::string_view cat = category_name(e.cat);

  begin_line();
  if (is_complete(e.kind)) {
    append_header(buf_, name, cat, "X", e.ts_ns, pid, e.tid);
    buf_ += ",\"dur\":";
    append_us(buf_, e.dur_ns < 0 ? 0 : e.dur_ns);
  } else if (e.kind == EventKind::Counter) {
    append_header(buf_, name, cat, "C", e.ts_ns, pid, e.tid);
  } else {
    append_header(buf_, name, cat, "i", e.ts_ns, pid, e.tid);
    buf_ += ",\"s\":\"t\"";
  }
  append_args(buf_, e, strings);
  buf_ += '}';

  // The flow point sits mid-slice so that it binds to this slice in every
  // importer, whatever order they give events sharing a timestamp.
  if (e.flow_id != 0 && is_complete(e.kind)) {
    bool device = e.device != 0;
    begin_line();
    append_header(buf_, "launch", "flow", device ? "f" : "s", e.ts_ns + e.dur_ns / 2, pid, e.tid);
    buf_ += ",\"id\":";
    append_int(buf_, e.flow_id);
    if (device) buf_ += ",\"bp\":\"e\"";
    buf_ += '}';
  }
}

void ChromeTraceSink::write_buffer() {
  if (file_ == nullptr || buf_.empty()) return;
  std::fwrite(buf_.data(), 1, buf_.size(), file_);
  buf_.clear();
}

void ChromeTraceSink::on_events(std::span<const Event> events, const StringTable& strings) {
  if (file_ == nullptr) return;
  for (const Event& e : events) append_event(e, strings);
  write_buffer();
}

void ChromeTraceSink::flush() {
  if (file_ != nullptr) std::fflush(file_);
}

void ChromeTraceSink::close() {
  if (file_ == nullptr) return;
  buf_ += "\n]\n";
  write_buffer();
  bool failed = std::ferror(file_) != 0;
  failed = std::fclose(file_) != 0 || failed;
  file_ = nullptr;
  if (failed) throw TraceError("writing trace file '" + path_ + "' failed (disk full?)");
}

void write_chrome_trace(const std::string& path, std::span<const Event> events,
                        const StringTable& strings) {
  ChromeTraceSink sink(path, "");
  sink.on_events(events, strings);
  sink.close();
}

}  // namespace kiln::trace

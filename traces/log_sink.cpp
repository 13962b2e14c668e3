// KILN_LOGS printer: topic parsing, one line per selected event, perf summary.
#include "traces/log_sink.h"

#include <algorithm>
#include <cstdio>
#include <vector>

namespace kiln::trace {

// ---------------------------------------------------------------------------
// Topics and the spec.

namespace {

struct TopicInfo {
  const char* name;
  const char* help;
};

constexpr TopicInfo kTopics[] = {
#define KILN_LOG_TOPIC_INFO(name, help) {#name, help},
    KILN_LOG_TOPICS(KILN_LOG_TOPIC_INFO)
#undef KILN_LOG_TOPIC_INFO
};
constexpr uint32_t kTopicCount = sizeof(kTopics) / sizeof(kTopics[0]);
constexpr uint32_t kAllTopics = (1u << kTopicCount) - 1;

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

// Bits of the topics `name` selects; throws on an unknown name.
uint32_t topic_bits(std::string_view name) {
  if (name == "all") return kAllTopics;
  for (uint32_t i = 0; i < kTopicCount; ++i)
    if (name == kTopics[i].name) return 1u << i;
  std::string valid = "all";
  for (const TopicInfo& t : kTopics) valid += std::string(", ") + t.name;
  throw TraceError("KILN_LOGS: unknown topic '" + std::string(name) + "' (valid topics: " + valid +
                   ")");
}

}  // namespace

const char* log_topic_name(LogTopic t) {
  auto i = static_cast<uint32_t>(t);
  return i < kTopicCount ? kTopics[i].name : "?";
}

LogSpec parse_log_spec(std::string_view spec) {
  LogSpec out;
  while (!spec.empty()) {
    size_t comma = spec.find(',');
    std::string_view item = trim(spec.substr(0, comma));
    spec = comma == std::string_view::npos ? std::string_view() : spec.substr(comma + 1);
    if (item.empty()) continue;
    bool verbose = item.front() == '+';
    if (verbose) item = trim(item.substr(1));
    uint32_t bits = topic_bits(item);
    out.topics |= bits;
    if (verbose) out.verbose |= bits;
  }
  return out;
}

std::string log_topics_help() {
  std::string out;
  char line[256];
  std::snprintf(line, sizeof line, "  %-13s %s\n", "all", "every topic below");
  out += line;
  for (const TopicInfo& t : kTopics) {
    std::snprintf(line, sizeof line, "  %-13s %s\n", t.name, t.help);
    out += line;
  }
  return out;
}

// ---------------------------------------------------------------------------
// Printing events.

namespace {

// " file:line:col" (parts that are known), or "" when the event has no place.
std::string where(const Loc& loc, const StringTable& strings) {
  if (loc.file == 0) return "";
  std::string s(" ");  // appends, not " " + ..., which trips GCC 12's -Wrestrict
  s += strings.str(loc.file);
  if (loc.line > 0) s.append(":").append(std::to_string(loc.line));
  if (loc.line > 0 && loc.col > 0) s.append(":").append(std::to_string(loc.col));
  return s;
}

// " reason: text" of a graph break, after its place.
std::string break_reason(const Event& e, const StringTable& strings) {
  std::string out(" ");
  out += e.detail ? strings.str(e.detail) : "graph break";
  out.append(": ").append(strings.str(e.text));
  return out;
}

std::string format_ms(int64_t ns) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3f ms", static_cast<double>(ns) / 1e6);
  return buf;
}

bool is_kernel(EventKind k) {
  return k == EventKind::Kernel || k == EventKind::GpuKernel || k == EventKind::MemCopy;
}

}  // namespace

void LogSink::on_events(std::span<const Event> events, const StringTable& strings) {
  for (const Event& e : events) {
    print(e, strings);
    if (spec_.has(LogTopic::perf)) tally(e, strings);
  }
}

void LogSink::print(const Event& e, const StringTable& strings) {
  auto s = [&](StrId id) { return strings.str(id); };
  auto head = [&](LogTopic t) -> std::ostream& {
    return out_ << "[kiln " << log_topic_name(t) << "]" << where(e.loc, strings);
  };
  switch (e.kind) {
    case EventKind::GraphBreak:
      if (!spec_.has(LogTopic::graph_breaks) || !first_graph_break(e, strings)) return;
      head(LogTopic::graph_breaks) << break_reason(e, strings) << "\n";
      if (e.stack != 0) out_ << "    user stack: " << s(e.stack) << "\n";
      return;
    case EventKind::Recompile:
      if (!spec_.has(LogTopic::recompiles)) return;
      head(LogTopic::recompiles) << " recompiling: guard " << s(e.text) << " failed";
      if (e.detail != 0) out_ << " (" << s(e.detail) << ")";
      out_ << "; cache entries: " << e.a << "\n";
      return;
    case EventKind::GuardFail:
      if (!spec_.has(LogTopic::guards)) return;
      head(LogTopic::guards) << " guard failed: " << s(e.text);
      if (e.detail != 0) out_ << " (" << s(e.detail) << ")";
      out_ << "\n";
      return;
    case EventKind::Log: {
      std::string_view name = s(e.name);
      LogTopic topic = name == "graph" ? LogTopic::graph : name == "cache" ? LogTopic::cache : LogTopic::output_code;
      if ((name != "graph" && name != "output_code" && name != "cache") || !spec_.has(topic)) return;
      head(topic);
      if (e.graph_id != 0) out_ << " graph " << e.graph_id;
      std::string_view text = s(e.text);
      out_ << "\n" << text << (text.empty() || text.back() != '\n' ? "\n" : "");
      return;
    }
    case EventKind::Kernel:
    case EventKind::GpuKernel:
    case EventKind::MemCopy:
      if (!spec_.is_verbose(LogTopic::perf)) return;
      head(LogTopic::perf) << " " << event_kind_name(e.kind) << " " << s(e.name) << " "
                           << format_ms(e.dur_ns);
      if (e.text != 0) out_ << " [" << s(e.text) << "]";
      if (e.a + e.b != 0) out_ << " " << e.a + e.b << " bytes";
      if (e.c != 0) out_ << " " << e.c << " flops";
      out_ << "\n";
      return;
    case EventKind::Span:
    case EventKind::Counter:
      return;
  }
}

// Counts e among the breaks seen; true when it is the first of its place and
// reason, or when every occurrence is to be printed (+graph_breaks).
bool LogSink::first_graph_break(const Event& e, const StringTable& strings) {
  auto key = std::make_tuple(e.loc.file, e.loc.line, e.loc.col, e.detail, e.text);
  auto [it, inserted] = break_index_.emplace(key, breaks_.size());
  if (inserted) breaks_.push_back({"[kiln graph_breaks]" + where(e.loc, strings) + break_reason(e, strings), 0});
  breaks_[it->second].count += 1;
  return inserted || spec_.is_verbose(LogTopic::graph_breaks);
}

void LogSink::print_graph_break_repeats() {
  if (spec_.is_verbose(LogTopic::graph_breaks)) return;  // each was printed
  for (const BreakSeen& b : breaks_)
    if (b.count > 1) out_ << b.line << " (occurred " << b.count << " times; +graph_breaks prints each)\n";
}

void LogSink::tally(const Event& e, const StringTable& strings) {
  if (e.kind != EventKind::Span && !is_kernel(e.kind)) return;
  auto& table = e.kind == EventKind::Span ? spans_ : kernels_;
  std::string_view name = strings.str(e.name);
  auto it = table.find(name);
  if (it == table.end()) it = table.emplace(std::string(name), Totals{}).first;
  Totals& t = it->second;
  t.count += 1;
  t.total_ns += e.dur_ns;
  t.bytes += e.a + e.b;
  t.flops += e.c;
}

// ---------------------------------------------------------------------------
// Perf summary.

void LogSink::close() {
  print_graph_break_repeats();
  if (!spec_.has(LogTopic::perf)) return;
  auto table = [&](const char* title, const std::map<std::string, Totals, std::less<>>& rows) {
    std::vector<std::pair<std::string, Totals>> sorted(rows.begin(), rows.end());
    std::sort(sorted.begin(), sorted.end(),
              [](const auto& x, const auto& y) { return x.second.total_ns > y.second.total_ns; });
    out_ << "[kiln perf] " << title << " by total time (" << sorted.size() << " names)\n";
    constexpr size_t kShown = 20;
    for (size_t i = 0; i < sorted.size() && i < kShown; ++i) {
      const auto& [name, t] = sorted[i];
      char line[512];
      std::snprintf(line, sizeof line, "[kiln perf]   %-32s %8llu calls %12.3f ms %10.3f us/call",
                    name.c_str(), static_cast<unsigned long long>(t.count), t.total_ns / 1e6,
                    t.total_ns / 1e3 / static_cast<double>(t.count));
      out_ << line;
      double seconds = t.total_ns / 1e9;
      if (t.bytes != 0 && seconds > 0) {
        std::snprintf(line, sizeof line, " %8.2f GB/s", t.bytes / seconds / 1e9);
        out_ << line;
      }
      if (t.flops != 0 && seconds > 0) {
        std::snprintf(line, sizeof line, " %8.2f GFLOP/s", t.flops / seconds / 1e9);
        out_ << line;
      }
      out_ << "\n";
    }
  };
  if (!kernels_.empty()) table("kernels", kernels_);
  if (!spans_.empty()) table("spans", spans_);
  out_.flush();
}

}  // namespace kiln::trace

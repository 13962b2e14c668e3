// KILN_LOGS: human-readable lines from the same events the trace records.
//
//   KILN_LOGS=graph_breaks,recompiles,+perf   (comma list, like TORCH_LOGS)
//
// Each topic selects some events; "all" selects every topic. A leading "+"
// asks for more detail (perf then prints every kernel, not only the summary
// at exit). Lines look like
//   [kiln graph_breaks] model.py:12:5 data-dependent branch: if x.sum() > 0
// A graph break is printed the first time its place and reason occur (a
// loop breaking at the same `.item()` 200 times is one line, as TORCH_LOGS
// prints it once per compile); close() then says how often each repeated.
// +graph_breaks prints every occurrence.
#pragma once

#include <cstdint>
#include <map>
#include <ostream>
#include <span>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "traces/event.h"
#include "traces/recorder.h"

namespace kiln::trace {

// name, what it prints (shown by `kiln run --help` and in errors)
#define KILN_LOG_TOPICS(_)                                                             \
  _(graph_breaks, "where and why the tracer ended a graph (GraphBreak events)")       \
  _(recompiles, "which guard failed and forced a recompile (Recompile events)")       \
  _(guards, "every failed guard, with expected vs actual (GuardFail events)")         \
  _(graph, "the captured graph of each compiled region (Log events named graph)")     \
  _(output_code, "the generated kernel code (Log events named output_code)")          \
  _(cache, "why each kernel missed the disk cache, and rejected cache files (Log events named cache)") \
  _(perf, "time per kernel and span at exit; with +perf, every kernel as it runs")

enum class LogTopic : uint8_t {
#define KILN_LOG_TOPIC_ENUM(name, help) name,
  KILN_LOG_TOPICS(KILN_LOG_TOPIC_ENUM)
#undef KILN_LOG_TOPIC_ENUM
};
const char* log_topic_name(LogTopic t);

struct LogSpec {
  uint32_t topics = 0;   // bit (1 << LogTopic)
  uint32_t verbose = 0;  // topics given with a leading '+'

  bool has(LogTopic t) const { return (topics >> static_cast<unsigned>(t)) & 1u; }
  bool is_verbose(LogTopic t) const { return (verbose >> static_cast<unsigned>(t)) & 1u; }
  bool empty() const { return topics == 0; }
};

// Parses a KILN_LOGS value. Empty items and surrounding spaces are ignored;
// an unknown topic throws TraceError naming the valid ones.
LogSpec parse_log_spec(std::string_view spec);

// One line per topic, "  name  what it prints", for --help.
std::string log_topics_help();

class LogSink : public Sink {
 public:
  LogSink(LogSpec spec, std::ostream& out) : spec_(spec), out_(out) {}

  void on_events(std::span<const Event> events, const StringTable& strings) override;
  void flush() override { out_.flush(); }
  void close() override;  // prints the perf summary when perf is on

 private:
  void print(const Event& e, const StringTable& strings);
  void tally(const Event& e, const StringTable& strings);
  bool first_graph_break(const Event& e, const StringTable& strings);
  void print_graph_break_repeats();

  struct Totals {
    uint64_t count = 0;
    int64_t total_ns = 0;
    uint64_t bytes = 0;
    uint64_t flops = 0;
  };

  LogSpec spec_;
  std::ostream& out_;
  std::map<std::string, Totals, std::less<>> kernels_;  // perf summary, by kernel name
  std::map<std::string, Totals, std::less<>> spans_;
  // Graph breaks by (file, line, col, reason, text): how often each occurred,
  // in the order of their first occurrence.
  struct BreakSeen {
    std::string line;  // as printed, without the newline
    uint64_t count = 0;
  };
  std::vector<BreakSeen> breaks_;
  std::map<std::tuple<StrId, int32_t, int32_t, StrId, StrId>, size_t> break_index_;
};

}  // namespace kiln::trace

// The Graph breaks table: one row per break site (category + location), with
// how often it broke, the time lost in the interpreter after it (until the
// next compiled activity; SessionIndex::gap_end_after), and for the detail
// pane the source line text, the user stack and the graphs around it.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "profiler_ui/model/graphs.h"
#include "profiler_ui/model/session_index.h"
#include "profiler_ui/model/table_filter.h"
#include "profiler_ui/model/table_sort.h"

namespace kiln::inspect {

struct BreakRow {
  std::string category;      // "data_dependent_branch", ... (the event's reason)
  std::string message;       // the first instance's message: what happened and what to do
  SourceLoc loc;             // where in the script
  uint64_t count = 0;
  int64_t time_lost_ns = 0;  // summed over instances
  std::string source_line;   // the line's text from the session's source ("" if unavailable)
  std::string stack;         // the most common user stack ("train (f.py:68) <- <module> (f.py:114)")
  std::vector<uint64_t> graphs_before;  // distinct graph ids that ran just before an instance
  std::vector<uint64_t> graphs_after;   // ... and just after
  std::vector<size_t> events;           // the instances' event indices, by time
  int64_t first_ts_ns = 0;
};

// Rows sorted by time lost, then count (descending).
std::vector<BreakRow> graph_breaks(const SessionIndex& index);

enum class BreakColumn { Category, Message, Location, Count, TimeLost };
inline constexpr const char* kBreakColumns[] = {"Category", "Message", "Location", "Count", "Time lost"};
SortValue break_sort_key(const BreakRow& row, int column);
bool break_matches(const BreakRow& row, const TextFilter& filter);

// Line `line` (1-based) of `source` without its newline; "" if out of range.
std::string_view source_line(std::string_view source, int32_t line);

}  // namespace kiln::inspect

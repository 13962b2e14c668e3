// Compile payback per compiled graph: what compiling it cost against what it
// saved. Saved per run = the interpreter's cost of the same ops (estimated
// from the recording: the mean time of each node's op run eagerly, summed
// over the graph's nodes) minus the graph's measured compiled time per run.
// Calls to break even = ceil(compile cost / saved per run). A graph compiled
// by a recompile that never paid off is flagged.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "profiler_ui/model/session_index.h"
#include "profiler_ui/model/table_filter.h"
#include "profiler_ui/model/table_sort.h"

namespace kiln::inspect {

struct PaybackRow {
  uint64_t graph_id = 0;
  std::string region;
  int64_t compile_ns = 0;           // capture + codegen
  uint64_t runs = 0;                // compiled runs in the recording
  // Measured: the mean "run graph N" span (eager steps included) when
  // runs_measured, else its fused kernels' time / estimated runs.
  double compiled_ns_per_run = 0;
  bool runs_measured = false;
  double interpreted_ns_per_run = 0;  // estimated eager cost of the same nodes
  bool interpreted_estimated = true;  // false once the runtime records it
  uint64_t estimated_nodes = 0;     // nodes whose op had eager timings to estimate from
  double saved_ns_per_run = 0;      // interpreted - compiled
  double saved_ns = 0;              // saved per run * runs
  int64_t calls_to_break_even = -1; // -1: never (saves nothing per run)
  bool paid_off = false;            // saved_ns >= compile_ns
  bool after_recompile = false;
  bool recompile_never_paid_off = false;
};

// The same arithmetic on plain numbers (exposed for tests and what-ifs).
PaybackRow payback_of(int64_t compile_ns, uint64_t runs, double compiled_ns_per_run,
                      double interpreted_ns_per_run);

// Rows by graph id.
std::vector<PaybackRow> compile_payback(const SessionIndex& index);

enum class PaybackColumn { Graph, Region, Compile, Runs, SavedPerRun, BreakEven, PaidOff };
inline constexpr const char* kPaybackColumns[] = {"Graph", "Region", "Compile", "Runs",
                                                   "Saved / run", "Calls to break even", "Paid off"};
SortValue payback_sort_key(const PaybackRow& row, int column);
bool payback_matches(const PaybackRow& row, const TextFilter& filter);

}  // namespace kiln::inspect

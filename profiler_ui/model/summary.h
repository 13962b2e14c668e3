// The Summary view's numbers: script, duration, where the time went
// (interpreter, compiled code, compiling), graphs, breaks, recompiles, top
// kernels and dropped events.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "profiler_ui/model/session_index.h"

namespace kiln::inspect {

struct TopKernel {
  std::string name;
  uint64_t calls = 0;
  int64_t total_ns = 0;
  double percent_of_run = 0;  // total_ns / duration_ns * 100
};

struct Summary {
  std::string script;
  std::string kiln_version;
  int64_t duration_ns = 0;       // first event start to last event end
  // Time split (ns). compiled: graph runs on the main thread ("run graph N"
  // spans, their eager steps included; older recordings: fused kernels
  // attributed to a graph).
  // compiling: union of compile spans on the main thread (background compile
  // threads are in compile_background_ns). interpreter: the rest of the main
  // thread's time (eager kernels included): duration - compiled - compiling.
  int64_t interpreter_ns = 0;
  int64_t compiled_ns = 0;
  int64_t compiling_ns = 0;
  int64_t compile_background_ns = 0;  // compile spans on other threads
  int64_t eager_kernel_ns = 0;        // kernels that are not fused ones of a graph (eager steps of runs too)
  uint64_t graphs = 0;
  uint64_t graph_breaks = 0;          // GraphBreak events
  uint64_t graph_break_sites = 0;     // distinct (category, location)
  uint64_t recompiles = 0;            // Recompile events
  uint64_t guard_failures = 0;        // GuardFail events
  uint64_t kernel_calls = 0;
  uint64_t events = 0;
  uint64_t dropped_events = 0;
  std::vector<TopKernel> top_kernels;  // by total time, at most `top_n`
  std::vector<std::string> load_errors;
};

Summary summarize(const SessionIndex& index, size_t top_n = 10);

}  // namespace kiln::inspect

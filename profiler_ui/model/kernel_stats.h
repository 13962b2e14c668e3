// The Kernels table: per kernel name, calls and time (total, mean, min, max,
// % of run), bytes moved, achieved GB/s and its share of the machine's
// bandwidth, flops; for the detail pane, the graph nodes a fused kernel holds
// and its generated code ("output_code" events: kernel IR, and LLVM IR and
// assembly when recorded with KILN_LOGS=output_code).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "profiler_ui/model/graphs.h"
#include "profiler_ui/model/session_index.h"
#include "profiler_ui/model/table_filter.h"
#include "profiler_ui/model/table_sort.h"

namespace kiln::inspect {

// A graph node a kernel computes.
struct KernelNodeRef {
  uint64_t graph_id = 0;
  int node = 0;  // index into GraphInfo::nodes
  friend bool operator==(const KernelNodeRef&, const KernelNodeRef&) = default;
  friend auto operator<=>(const KernelNodeRef&, const KernelNodeRef&) = default;
};

struct KernelRow {
  std::string name;
  std::string device;   // "cpu", "gpu 0", ...
  bool fused = false;   // a generated kernel (fused_*), not an op's own kernel
  uint64_t calls = 0;
  int64_t total_ns = 0, min_ns = 0, max_ns = 0;
  double mean_ns = 0;
  double percent_of_run = 0;    // total / session duration * 100
  uint64_t bytes = 0;           // read + written, all calls
  uint64_t flops = 0;           // all calls
  double gb_per_s = 0;          // bytes / total time (1 GB = 1e9 bytes)
  double percent_of_bandwidth = 0;  // gb_per_s / machine bandwidth * 100 (0: bandwidth unknown)
  double gflop_per_s = 0;
  std::string shapes;           // the first call's shapes
  std::vector<uint64_t> graphs;       // graphs it ran for
  std::vector<KernelNodeRef> nodes;   // graph nodes it fused (derived from its name)
  std::string code;             // generated code, "" when not recorded
};

struct KernelStatsOptions {
  double machine_bandwidth_gbps = 0;  // memory bandwidth in GB/s; 0: unknown
};

// Rows sorted by total time, descending.
std::vector<KernelRow> kernel_stats(const SessionIndex& index, KernelStatsOptions options = {});

// GB/s of `bytes` moved in `ns` nanoseconds (bytes / ns == GB/s); 0 if ns <= 0.
double gigabytes_per_second(uint64_t bytes, int64_t ns);

enum class KernelColumn { Name, Calls, Total, Mean, Min, Max, PercentOfRun, Bytes, GBps, Flops };
inline constexpr const char* kKernelColumns[] = {"Kernel", "Calls", "Total", "Mean", "Min",
                                                  "Max", "% of run", "Bytes", "GB/s", "Flops"};
SortValue kernel_sort_key(const KernelRow& row, int column);
bool kernel_matches(const KernelRow& row, const TextFilter& filter);

}  // namespace kiln::inspect

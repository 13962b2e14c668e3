// Provenance both ways: kernel -> the graph nodes it fused -> the script lines
// they came from, and script line -> the graphs and kernels that hold its
// work. Built from the graphs' IR (every node carries "# file:line:col") and
// the fusion plans (kernel names list their ops, see nodes_of_fused_kernel).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "profiler_ui/model/graphs.h"
#include "profiler_ui/model/kernel_stats.h"
#include "profiler_ui/model/session_index.h"

namespace kiln::inspect {

struct KernelProvenance {
  std::string kernel;
  std::vector<KernelNodeRef> nodes;   // graph nodes it computes
  std::vector<SourceLoc> lines;       // their distinct source lines, sorted
};

struct LineProvenance {
  SourceLoc line;                      // col 0: a whole line
  std::vector<uint64_t> graphs;        // graphs with a node from this line
  std::vector<std::string> kernels;    // kernels computing such a node (fused and eager)
  std::vector<KernelNodeRef> nodes;
};

class Provenance {
 public:
  static Provenance build(const SessionIndex& index);

  // Empty result (no nodes) for unknown kernels.
  KernelProvenance of_kernel(const std::string& kernel_name) const;
  // file may be the script path as recorded; col is ignored.
  LineProvenance of_line(const std::string& file, int32_t line) const;
  // Every line that has graph work, sorted.
  std::vector<SourceLoc> lines() const;

 private:
  std::map<std::string, KernelProvenance> by_kernel_;
  std::map<std::pair<std::string, int32_t>, LineProvenance> by_line_;
};

}  // namespace kiln::inspect

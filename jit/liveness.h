// Which values of a graph stay observable after it runs, read from reference
// counts: a value whose memory nothing but the pending ops refers to (no
// Python variable, no autograd saved tensor, no view, no .grad) is an
// intermediate that fusion may keep in registers.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "jit/graph.h"

namespace kiln::jit {

struct Liveness {
  std::vector<bool> live;  // per value id (node outputs; inputs are always live)
  // Identifies this run's pattern of live values and of storage sharing
  // among the ops' tensors: a fusion plan is valid for runs with the same key.
  uint64_t key = 0;
};

Liveness liveness(const Graph& g, std::span<const lazy::PendingOp> ops);

}  // namespace kiln::jit

// Runs a compiled fused kernel on one run's tensors: binds operands, derives
// the domain and each operand's strides over it, and splits the domain over
// core's thread pool.
#pragma once

#include <span>

#include "jit/fusion.h"

namespace kiln::jit {

// False (nothing written) when this run's tensors do not fit what the kernel
// was compiled for (an operand's inner stride changed class, a rank changed):
// the caller then runs the kernel's nodes on their eager kernels.
bool launch(const FusedKernel& fk, kir::KernelFn fn, std::span<const lazy::PendingOp> ops);

}  // namespace kiln::jit

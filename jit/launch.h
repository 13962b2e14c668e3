// Runs a compiled fused kernel on one run's tensors: binds operands, derives
// the domain and each operand's strides over it, and splits the domain over
// core's thread pool.
#pragma once

#include <span>

#include "jit/fusion.h"

namespace kiln::jit {

// A kernel's arguments for one run (the KernelFn ABI of core/kernel_ir.h),
// whatever runs it: the CPU here, a GPU launcher (jit/cuda_device.cpp).
struct BoundArgs {
  Shape domain;
  SmallVec<char*, 16> ptrs;
  SmallVec<int64_t, 64> strides;
  SmallVec<double, 8> params;
  int64_t items = 0;  // Pointwise: domain elements; Row: rows
  // Operands to zero before the kernel runs (FusedKernel::zero_first).
  struct Zero {
    int32_t operand;
    size_t bytes;
  };
  SmallVec<Zero, 2> zero;
};

// False when this run's tensors do not fit what the kernel was compiled for
// (an operand's inner stride changed class, a rank changed, a specialized
// value changed).
bool bind_args(const FusedKernel& fk, std::span<const lazy::PendingOp> ops, BoundArgs& out);

// Runs bound arguments on the CPU, split over core's thread pool (serially
// when the kernel scatters), after zeroing the operands a.zero names.
void run_bound(const kir::Kernel& k, kir::KernelFn fn, const BoundArgs& a);

// False (nothing written) when bind_args fails: the caller then runs the
// kernel's nodes on their eager kernels.
bool launch(const FusedKernel& fk, kir::KernelFn fn, std::span<const lazy::PendingOp> ops);

}  // namespace kiln::jit

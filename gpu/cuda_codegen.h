// The GPU code generator: kernel IR (core/kernel_ir.h) to CUDA C, which
// NVRTC compiles (gpu/nvrtc_compile.h). The same kernel IR the CPU backend
// compiles, so fused and eager GPU kernels come from one definition of
// every op.
//
//  - Pointwise kernels: one thread per domain element in a grid-stride loop.
//  - Row kernels: one block per row (grid-stride over rows); each reduction
//    is a strided pass of the block's threads over the row, combined with
//    warp shuffles and shared memory, in order, so a later reduction may use
//    an earlier one's result; then the per-row stores (thread 0) and an
//    element pass for the element stores.
//
// The entry's ABI mirrors the CPU's KernelFn (core/kernel_ir.h): one
// argument, a struct of 8-byte words passed by value, laid out as
//   ptrs[num_operands] | sizes[rank] | strides[num_operands * rank] |
//   params[max(num_params, 1)] | begin | end
// (pointers, int64 sizes and strides in elements, doubles, and the flat
// element or row range the launch covers). gpu/launch packs it.
//
// Like the CPU backend, the code assumes each operand's last-dim stride fits
// its Operand::inner (1 for Contiguous, 0 for Broadcast; the launcher checks).
// Arithmetic is IEEE in each type, but NVRTC contracts a * b + c into an FMA
// unless compiled with --fmad=false, so float results may differ from the
// CPU's in the last bit. Several kernels' sources may be concatenated into one
// translation unit (the shared prelude is guarded) if their entries differ.
#pragma once

#include <cstdint>
#include <string>

#include "core/kernel_ir.h"

namespace kiln::gpu {

struct CudaKernelSource {
  std::string entry;  // the extern "C" __global__ function's name
  std::string code;   // a complete translation unit for NVRTC
  // Threads per block the launcher uses: the entry's __launch_bounds__.
  // Row kernels need a multiple of 32 (their reductions shuffle whole warps).
  int block_threads = 256;
};

// Emits `k` as the entry `entry`. Throws kiln::Error when the kernel IR is
// malformed (as the CPU backend's check_kernel does).
CudaKernelSource emit_cuda(const kir::Kernel& k, const std::string& entry);

// The argument words of the ABI above, for a launcher or a test.
int64_t cuda_arg_words(const kir::Kernel& k);

}  // namespace kiln::gpu

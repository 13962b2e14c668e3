// Random kernel IR for the GPU code generator's compile tests: pointwise and
// Row kernels drawing every op, every lowered type, every operand layout,
// per-row and element stores, and special constants (NaN, inf, int
// extremes). Nothing runs them, so unlike the CPU backend's random test any
// op may appear in any order; they only have to be valid IR.
#pragma once

#include <cstdint>

#include "core/kernel_ir.h"

namespace kiln::gpu::test {

// The kernel drawn from `seed` (the same seed gives the same kernel).
kir::Kernel random_kernel(uint64_t seed, bool row);

}  // namespace kiln::gpu::test

// A scalar interpreter of kernel IR with the KernelFn ABI, written from the
// semantics core/kernel_ir.h documents (not from the code generator), so
// compiled kernels can be checked against it element by element.
// Transcendentals are computed in a wider type and rounded: the reference
// is (nearly) correctly rounded, the compiled code within a few ulp.
#pragma once

#include <cstdint>

#include "core/kernel_ir.h"

namespace kiln::jit::ref {

void run_reference(const kir::Kernel& k, char* const* ptrs, const int64_t* sizes, const int64_t* strides,
                   const double* params, int64_t begin, int64_t end);

}  // namespace kiln::jit::ref

// Transcendental functions in generated code: glibc's libmvec vector variants
// (x86-64 vector function ABI names, _ZGV<isa>N<lanes><args>_<name>) for
// vectors, libm for scalars. libmvec is in every glibc since 2.22 and has
// log1p/erf/tanh since 2.35; its variants are accurate to 4 ulp. Float32 erf
// is the exception: computed inline (llvm_erf.cpp), libmvec's is too slow for
// GELU.
#pragma once

#include <llvm/IR/IRBuilder.h>

#include "core/kernel_ir.h"
#include "jit/llvm_codegen.h"

namespace kiln::jit {

// Whether `op` is computed by a call (Exp, Log, Log1p, Tanh, Erf, Sin, Cos, Pow).
bool is_math_call(kir::Op op);

// op(x) or, for Pow, x ** y: scalar or fixed vector of float/double.
llvm::Value* emit_math_call(llvm::IRBuilder<>& b, kir::Op op, llvm::Value* x, llvm::Value* y, const CodegenTarget& t);

// erf(x) for a float scalar or fixed vector of floats of any width, as inline
// IR (no calls): within 2 ulp of the correctly rounded value, exact at +-0,
// +-inf, NaN and beyond |x| = 4. In llvm_erf.cpp.
llvm::Value* emit_erf_f32(llvm::IRBuilder<>& b, llvm::Value* x);

}  // namespace kiln::jit

// Transcendental functions in generated code: glibc's libmvec vector variants
// (x86-64 vector function ABI names, _ZGV<isa>N<lanes><args>_<name>) for
// vectors, libm for scalars. libmvec is in every glibc since 2.22 and has
// log1p/erf/tanh since 2.35; its variants are accurate to 4 ulp. Float32
// erf, exp and tanh are the exception: computed inline (llvm_erf.cpp,
// llvm_exp_tanh.cpp), libmvec's calls are too slow for GELU and softmax.
#pragma once

#include <llvm/IR/IRBuilder.h>

#include <span>

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

// What the inline polynomials share (vector_math.cpp).
namespace vmath {
// A float constant of `type` (a scalar float or a vector of floats: splatted).
llvm::Value* constant(llvm::Type* type, float v);
// a * m + c rounded once (llvm.fma): the error bounds assume it, and it keeps
// the vector loop and its scalar tail bit-identical on every host.
llvm::Value* fma(llvm::IRBuilder<>& b, llvm::Value* a, llvm::Value* m, llvm::Value* c);
// The polynomial with coefficients highest degree first at v, by Horner's rule.
llvm::Value* horner(llvm::IRBuilder<>& b, llvm::Value* v, std::span<const float> coeffs);
}  // namespace vmath

// exp(x) and tanh(x) for a float scalar or fixed vector of floats of any
// width, as inline IR (no calls): within 1 and 3 ulp of the correctly rounded
// value, subnormal results included; exact at +-0, +-inf, NaN, overflow
// (exp +inf above 88.73, 0 below -103.98) and saturation (tanh +-1 beyond
// |x| = 9.01). In llvm_exp_tanh.cpp.
// With `avx512`, exp scales by 2^n with vscalefps (same bits, three
// instructions fewer) for 1, 4, 8 or 16 lanes.
llvm::Value* emit_exp_f32(llvm::IRBuilder<>& b, llvm::Value* x, bool avx512 = false);
llvm::Value* emit_tanh_f32(llvm::IRBuilder<>& b, llvm::Value* x);

}  // namespace kiln::jit

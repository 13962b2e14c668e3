// erf for float32 emitted inline as LLVM IR: two polynomials evaluated for
// every lane and one selected, no branches, calls or table lookups, so it
// vectorizes at any width. Within 2 ulp of the correctly rounded erf for
// every float (tests/jit_codegen/vector_math_test.cpp checks it); 22 vector
// instructions for 16 lanes with AVX-512, 0.22 ns an element where libmvec's
// erff, which gathers from tables, takes 0.50.
//
//   |x| < 1.3:  erf(x) = x + x * S(x^2)          S: degree 6
//   otherwise:  erf(x) = sign(x) * (1 - Q(a)^16),  a = min(|x|, 4)   Q: degree 5
//
// The coefficients are weighted minimax fits, rounded to float one at a time
// with the rest refitted: S for the error relative to erf, Q for the error of
// 1 - Q^16 in ulps of the result, which lets erfc = Q^16 be relatively less
// accurate the smaller it is (an ulp of the result is 6e-8; erfc(1.3) is
// 0.066). The 16th power multiplies Q's rounding error by 16; switching at
// 1.3 rather than 1 keeps that near an ulp. Clamping at 4, where erfc is
// 1.5e-8 (under half an ulp of 1), makes erf exactly +-1 beyond.
// scripts/fit_erf_f32.py computes the coefficients.
#include <llvm/IR/Intrinsics.h>

#include <span>

#include "core/float_math.h"
#include "jit/vector_math.h"

namespace kiln::jit {

namespace {

using vmath::constant;
using vmath::fma;
using vmath::horner;

// Shared with the eager kernels (core/float_math.h).
constexpr std::span<const float> kSmall = fmath::kErfSmall;
constexpr std::span<const float> kLarge = fmath::kErfLarge;
using fmath::kErfClamp;
using fmath::kErfSwitch;

}  // namespace

llvm::Value* emit_erf_f32(llvm::IRBuilder<>& b, llvm::Value* x) {
  llvm::Type* type = x->getType();
  llvm::Value* a = b.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, x);

  // x + x * S(x^2) keeps zeros' signs and tiny inputs' relative accuracy (x^2
  // underflows to 0: erf(x) = x * 1.128... rounded once) and passes NaN on.
  llvm::Value* small = fma(b, x, horner(b, b.CreateFMul(x, x), kSmall), x);

  // A select rather than minnum, which would be vminps plus a NaN fix-up; NaN
  // lanes take the small form.
  llvm::Value* clamp = constant(type, kErfClamp);
  llvm::Value* ac = b.CreateSelect(b.CreateFCmpOLT(a, clamp), a, clamp);
  llvm::Value* q = horner(b, ac, kLarge);
  for (int i = 0; i < 3; ++i) q = b.CreateFMul(q, q);  // Q^8; the last square fused into 1 - Q^16
  llvm::Value* large = b.CreateCopySign(fma(b, b.CreateFNeg(q), q, constant(type, 1.0f)), x);

  // Unordered-or-less: NaN takes the small form, which returns it.
  return b.CreateSelect(b.CreateFCmpULT(a, constant(type, kErfSwitch)), small, large);
}

}  // namespace kiln::jit

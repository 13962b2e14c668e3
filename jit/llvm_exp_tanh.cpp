// exp and tanh for float32 emitted inline as LLVM IR: straight-line code with
// no branches, calls or table lookups, so it vectorizes at any width and the
// scalar tail computes the same bits as the vector loop on every host. Within
// 1 ulp (exp) and 3 ulp (tanh) of the correctly rounded value for every float
// (tests/jit_codegen/vector_math_test.cpp checks it), subnormal results
// included. At 16 lanes (AVX-512), single-thread, L1-resident: exp 0.18 ns
// an element where libmvec's expf takes 0.21; tanh 0.27, as tanhf, bound by
// its one division (at 8 and 4 lanes half of tanhf's time).
//
//   exp(x)  = 2^n * (1 + r + r^2 * P(r)),  n = round(x / ln2),  r = x - n ln2   P: degree 4
//   tanh(x) = sign(x) * E / (E + 2),       E = e^2a - 1 = 2^n (1 + s) - 1,  a = |x|
//
// With AVX-512, exp's 2^n scaling is one vscalefps on (1 + s) instead of
// two exponent fields and two multiplies: the same single rounding, so the
// same bits as the eager kernels' C++, in three fewer instructions (softmax
// spends about 20 per element).
//
// tanh shares exp's reduction and polynomial (s = r + r^2 P(r)); computing
// e^2a - 1 rather than e^2a keeps small |x| relatively accurate with no
// second polynomial and no switch. P is a weighted minimax fit for the
// relative error of e^r, its coefficients rounded to float one at a time with
// the rest refitted; scripts/fit_exp_tanh_f32.py computes them.
#include <llvm/IR/Intrinsics.h>
#include <llvm/IR/IntrinsicsX86.h>

#include <cmath>
#include <span>

#include "core/error.h"
#include "core/float_math.h"
#include "jit/vector_math.h"

namespace kiln::jit {

namespace {

using vmath::constant;
using vmath::fma;
using vmath::horner;

// The constants are shared with the eager kernels (core/float_math.h), which
// compute the same operations in C++.
using fmath::kExp;
using fmath::kExpHi;
using fmath::kExpLo;
using fmath::kLn2Hi;
using fmath::kLn2Lo;
using fmath::kRoundMagic;
using fmath::kTanhClamp;

llvm::Value* int_constant(llvm::Type* type, int32_t v) {
  return llvm::ConstantInt::get(type, uint64_t(int64_t(v)), /*isSigned=*/true);
}


// e^x = 2^n (1 + s), s = r + r^2 P(r) for r = x - n ln2, |r| <= ln2/2 (|x|
// < 2^21), and `rounded` = x / ln2 + 1.5 * 2^23 + bias rounded to an integer:
// n + bias in its low mantissa bits.
struct Reduced {
  llvm::Value* rounded;
  llvm::Value* s;
};

Reduced reduce(llvm::IRBuilder<>& b, llvm::Value* x, int bias) {
  llvm::Type* type = x->getType();
  llvm::Value* magic = constant(type, kRoundMagic + float(bias));
  llvm::Value* t = fma(b, x, constant(type, fmath::kLog2e), magic);
  llvm::Value* minus_n = b.CreateFSub(magic, t);  // exact
  llvm::Value* r = fma(b, minus_n, constant(type, kLn2Hi), x);
  r = fma(b, minus_n, constant(type, kLn2Lo), r);
  return {t, fma(b, horner(b, r, kExp), b.CreateFMul(r, r), r)};
}

// The float with exponent field e (2^(e - 127)) from integer lanes whose low
// 9 bits are e: the higher bits shift out.
llvm::Value* exponent_field(llvm::IRBuilder<>& b, llvm::Value* e, llvm::Type* type) {
  return b.CreateBitCast(b.CreateShl(e, int_constant(e->getType(), 23)), type);
}

// v * 2^n, rounded once, for n an integer-valued float: AVX-512's
// vscalefps (vscalefss for a scalar); 1, 4, 8 or 16 lanes.
llvm::Value* scalef(llvm::IRBuilder<>& b, llvm::Value* v, llvm::Value* n) {
  auto* vt = llvm::dyn_cast<llvm::FixedVectorType>(v->getType());
  const unsigned lanes = vt ? vt->getNumElements() : 1;
  llvm::Value* all = b.getIntN(lanes == 16 ? 16 : 8, ~uint64_t(0));
  llvm::Value* current_rounding = b.getInt32(4);  // _MM_FROUND_CUR_DIRECTION
  switch (lanes) {
    case 16:
      return b.CreateIntrinsic(llvm::Intrinsic::x86_avx512_mask_scalef_ps_512, {}, {v, n, v, all, current_rounding});
    case 8: return b.CreateIntrinsic(llvm::Intrinsic::x86_avx512_mask_scalef_ps_256, {}, {v, n, v, all});
    case 4: return b.CreateIntrinsic(llvm::Intrinsic::x86_avx512_mask_scalef_ps_128, {}, {v, n, v, all});
    case 1: {
      llvm::Type* v4 = llvm::FixedVectorType::get(v->getType(), 4);
      llvm::Value* a = b.CreateInsertElement(llvm::PoisonValue::get(v4), v, uint64_t(0));
      llvm::Value* e = b.CreateInsertElement(llvm::PoisonValue::get(v4), n, uint64_t(0));
      llvm::Value* r = b.CreateIntrinsic(llvm::Intrinsic::x86_avx512_mask_scalef_ss, {}, {a, e, a, all, current_rounding});
      return b.CreateExtractElement(r, uint64_t(0));
    }
    default: KILN_CHECK(false, Runtime, "vscalefps for ", lanes, " lanes"); return nullptr;
  }
}

}  // namespace

llvm::Value* emit_exp_f32(llvm::IRBuilder<>& b, llvm::Value* x, bool avx512) {
  llvm::Type* type = x->getType();
  llvm::Type* itype = type->getWithNewType(b.getInt32Ty());
  // Selects rather than minnum/maxnum (vminps plus a NaN fix-up); NaN passes
  // through both and on to the result, whatever n its bits make.
  llvm::Value* hi = constant(type, kExpHi);
  llvm::Value* lo = constant(type, kExpLo);
  llvm::Value* xc = b.CreateSelect(b.CreateFCmpOGT(x, hi), hi, x);
  xc = b.CreateSelect(b.CreateFCmpOLT(xc, lo), lo, xc);

  // 2^n as two factors with exponent fields e1 = (n + 254) / 2 and e2 = n +
  // 254 - e1, both in [47, 192] for every n the clamp allows (including 128,
  // just below overflow, and -150, just above underflow): halving the
  // rounded sum's bits (the magic constant's are even) gives e1, subtracting
  // that e2. (1 + s) 2^e1 is exact; the second product rounds once, also
  // where the result is subnormal, and overflows to +inf or underflows to 0.
  const unsigned lanes = type->isVectorTy() ? llvm::cast<llvm::FixedVectorType>(type)->getNumElements() : 1;
  if (avx512 && (lanes == 1 || lanes == 4 || lanes == 8 || lanes == 16)) {
    // (1 + s) 2^n rounded once, as below; n = t - magic is exact.
    const Reduced e = reduce(b, xc, 0);
    llvm::Value* n = b.CreateFSub(e.rounded, constant(type, kRoundMagic));
    return scalef(b, b.CreateFAdd(e.s, constant(type, 1.0f)), n);
  }
  const Reduced e = reduce(b, xc, 254);
  llvm::Value* bits = b.CreateBitCast(e.rounded, itype);
  llvm::Value* half = b.CreateLShr(bits, int_constant(itype, 1));
  llvm::Value* s1 = exponent_field(b, half, type);
  llvm::Value* s2 = exponent_field(b, b.CreateSub(bits, half), type);
  return b.CreateFMul(fma(b, e.s, s1, s1), s2);
}

llvm::Value* emit_tanh_f32(llvm::IRBuilder<>& b, llvm::Value* x) {
  llvm::Type* type = x->getType();
  llvm::Type* itype = type->getWithNewType(b.getInt32Ty());
  // On |x| with the sign put back last: odd by construction, and -0 stays -0.
  // Clamped where tanh rounds to 1 (a select, one vminps; NaN passes).
  llvm::Value* a = b.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, x);
  llvm::Value* clamp = constant(type, kTanhClamp);
  a = b.CreateSelect(b.CreateFCmpOGT(a, clamp), clamp, a);

  // E = e^2a - 1 = 2^n (1 + s) - 1 for 2a (exact) in [0, 18.2], so n in [0,
  // 27]: 2^n is one exponent field, no two-step scaling.
  const Reduced r = reduce(b, b.CreateFAdd(a, a), 127);
  llvm::Value* scale = exponent_field(b, b.CreateBitCast(r.rounded, itype), type);
  // 2^n s + (2^n - 1), rounded once: 2^n - 1 is exact, and for n = 0 (2a <
  // ln2/2) E is s, relatively accurate however small: no cancellation.
  llvm::Value* e = fma(b, scale, r.s, b.CreateFSub(scale, constant(type, 1.0f)));

  // tanh(a) = E / (E + 2): tiny and subnormal a give 2a / 2 = a. The
  // rounding of E + 2 costs up to an ulp (correcting it with a two-sum takes
  // 8 more instructions and 40% longer for 1 ulp less).
  return b.CreateCopySign(b.CreateFDiv(e, b.CreateFAdd(e, constant(type, 2.0f))), x);
}

}  // namespace kiln::jit

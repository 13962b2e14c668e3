// Accuracy of the generated transcendentals (libmvec in the vector loop,
// libm in the scalar tail; float32 erf, exp and tanh inline) against the functions computed
// in a wider type:
// the max error in ulp over many inputs per range, printed and bounded, and
// the special values (NaN, infinities, zeros, overflow) exactly right.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "core/float_math.h"
#include "jit/llvm_backend.h"
#include "tests/jit_codegen/kernel_args.h"

namespace kiln::jit::test {
namespace {

using kir::Inner;
using kir::Op;

long double wide(Op op, long double x, long double y) {
  switch (op) {
    case Op::Exp: return std::exp(x);
    case Op::Log: return std::log(x);
    case Op::Log1p: return std::log1p(x);
    case Op::Tanh: return std::tanh(x);
    case Op::Erf: return std::erf(x);
    case Op::Sin: return std::sin(x);
    case Op::Cos: return std::cos(x);
    case Op::Pow: return std::pow(x, y);
    default: return NAN;
  }
}

// The spacing of the floating-point numbers of type T at v (v itself rounded to T).
template <class T>
double ulp_at(long double v) {
  const T r = T(v);
  if (r == 0 || !std::isfinite(r)) return std::numeric_limits<T>::denorm_min();
  const int e = std::max(std::ilogb(r), std::numeric_limits<T>::min_exponent - 1);
  return std::ldexp(1.0, e - (std::numeric_limits<T>::digits - 1));
}

struct Range {
  double lo, hi;
  bool log_uniform = false;
};

struct Measured {
  double max_ulp = 0, max_abs = 0, worst_x = 0;
  int special_failures = 0;
};

// Runs out = op(x[, y]) over `xs` (and `ys`) in the element type T.
template <class T>
Measured measure(Op op, const std::vector<double>& xs, const std::vector<double>& ys) {
  constexpr DType t = sizeof(T) == 4 ? DType::Float32 : DType::Float64;
  const bool pow = op == Op::Pow;
  kir::Kernel k =
      make_kernel(std::string("acc_") + kir::op_name(op), kir::Kind::Pointwise, 1,
                  {{t, Inner::Contiguous, false}, {t, Inner::Contiguous, false}, {t, Inner::Contiguous, true}},
                  [&](kir::Builder& b) {
                    kir::ExprId x = b.load(0);
                    add_store(b, 2, pow ? b.binary(Op::Pow, x, b.load(1)) : b.unary(op, x));
                  });
  kir::KernelFn fn = LlvmBackend::get().compile(k).fn;
  const int64_t n = int64_t(xs.size());
  std::vector<T> x(xs.begin(), xs.end()), y(size_t(n), T(1)), out(static_cast<size_t>(n));
  if (pow) y.assign(ys.begin(), ys.end());
  char* ptrs[] = {reinterpret_cast<char*>(x.data()), reinterpret_cast<char*>(y.data()),
                  reinterpret_cast<char*>(out.data())};
  const int64_t sizes[] = {n}, strides[] = {1, 1, 1};
  fn(ptrs, sizes, strides, nullptr, 0, n);
  Measured m;
  for (int64_t i = 0; i < n; ++i) {
    const long double want = wide(op, x[size_t(i)], y[size_t(i)]);
    const T got = out[size_t(i)];
    const T want_t = T(want);
    if (std::isnan(want_t) || std::isinf(want_t)) {  // NaN and overflow exactly
      if (!(std::isnan(want_t) ? std::isnan(got) : got == want_t)) {
        if (m.special_failures++ < 5)
          ADD_FAILURE() << kir::op_name(op) << "(" << x[size_t(i)] << ", " << y[size_t(i)] << ") = " << got << ", want "
                        << want_t;
      }
      continue;
    }
    const double err = double(std::fabs((long double)got - want));
    const double ulps = err / ulp_at<T>(want);
    if (ulps > m.max_ulp) m.max_ulp = ulps, m.worst_x = x[size_t(i)];
    m.max_abs = std::max(m.max_abs, err);
  }
  return m;
}

std::vector<double> sample(Range r, size_t n, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<double> v(n);
  for (double& x : v) {
    if (r.log_uniform) {
      x = std::exp(std::uniform_real_distribution<double>(std::log(r.lo), std::log(r.hi))(rng));
    } else {
      x = std::uniform_real_distribution<double>(r.lo, r.hi)(rng);
    }
  }
  return v;
}

struct Case {
  Op op;
  Range x, y;
  double f32_ulp, f64_ulp;  // bounds
};

// 2^17 + 5 inputs per range: all but the last few run through the vector loop.
constexpr size_t kSamples = (1u << 17) + 5;

template <class T>
void accuracy(const char* type_name) {
  const std::vector<Case> cases = {
      {Op::Exp, {-10, 10}, {}, 4, 4},
      {Op::Exp, {-87, 88}, {}, 4, 4},
      {Op::Log, {1e-3, 10}, {}, 4, 4},
      {Op::Log, {1e-30, 1e30, true}, {}, 4, 4},
      {Op::Log1p, {-0.999, 10}, {}, 4, 4},
      {Op::Log1p, {1e-12, 1e-2, true}, {}, 4, 4},
      {Op::Tanh, {-10, 10}, {}, 4, 4},
      {Op::Tanh, {1e-8, 1e-1, true}, {}, 4, 4},
      // erf near +-1 (|x| > 2): 4 ulp of the result there is 2.4e-7 absolute.
      {Op::Erf, {-5, 5}, {}, 4, 4},
      {Op::Erf, {1.5, 4}, {}, 4, 4},
      {Op::Erf, {-0.5, 0.5}, {}, 4, 4},
      {Op::Sin, {-10, 10}, {}, 4, 4},
      {Op::Cos, {-10, 10}, {}, 4, 4},
      {Op::Sin, {-1e4, 1e4}, {}, 4, 4},
      {Op::Pow, {1e-2, 10}, {-5, 5}, 4, 4},
  };
  uint64_t seed = 1;
  for (const Case& c : cases) {
    const std::vector<double> xs = sample(c.x, kSamples, seed++), ys = sample(c.y, kSamples, seed++);
    Measured m = measure<T>(c.op, xs, ys);
    const double bound = sizeof(T) == 4 ? c.f32_ulp : c.f64_ulp;
    std::printf("%-6s %-7s x in [%g, %g]: max error %.2f ulp (at x=%.9g), max abs %.3g\n", type_name,
                kir::op_name(c.op), c.x.lo, c.x.hi, m.max_ulp, m.worst_x, m.max_abs);
    ::testing::Test::RecordProperty(std::string(type_name) + "_" + kir::op_name(c.op) + "_max_ulp",
                                    std::to_string(m.max_ulp));
    EXPECT_LE(m.max_ulp, bound) << type_name << " " << kir::op_name(c.op) << " in [" << c.x.lo << ", " << c.x.hi << "]";
    if (c.op == Op::Erf) {
      EXPECT_LE(m.max_abs, sizeof(T) == 4 ? 3e-7 : 5e-16);
    }
    EXPECT_EQ(m.special_failures, 0);
  }
}

TEST(LlvmVectorMath, AccuracyFloat32) { accuracy<float>("f32"); }
TEST(LlvmVectorMath, AccuracyFloat64) { accuracy<double>("f64"); }

// NaN in, NaN out; infinities, zeros and overflow as libm has them. Each
// special sits at several positions so both the vector body and the scalar
// tail see it.
template <class T>
void specials() {
  const double sp[] = {NAN,   INFINITY, -INFINITY, 0.0,    -0.0,  1.0,    -1.0,
                       1e-45, 1e-300,   100.0,     -100.0, 800.0, -800.0, 1e30};
  std::vector<double> xs;
  for (int rep = 0; rep < 5; ++rep)
    for (double v : sp) xs.push_back(v);
  for (Op op : {Op::Exp, Op::Log, Op::Log1p, Op::Tanh, Op::Erf, Op::Sin, Op::Cos}) {
    Measured m = measure<T>(op, xs, {});
    EXPECT_EQ(m.special_failures, 0) << kir::op_name(op);
    EXPECT_LE(m.max_ulp, 4) << kir::op_name(op) << " at " << m.worst_x;
  }
  std::vector<double> ys;
  for (double x : xs) ys.push_back(x == 1.0 ? NAN : 2.0);
  Measured m = measure<T>(Op::Pow, xs, ys);  // pow(1, NaN) == 1, pow(NaN, 2) NaN, pow(-inf, 2) inf ...
  EXPECT_EQ(m.special_failures, 0);
  EXPECT_LE(m.max_ulp, 4);
}

TEST(LlvmVectorMath, SpecialValuesFloat32) { specials<float>(); }
TEST(LlvmVectorMath, SpecialValuesFloat64) { specials<double>(); }


// ---- float32 erf, exp and tanh, computed inline: every input ---------------
// (jit/llvm_erf.cpp, jit/llvm_exp_tanh.cpp.) Run once per vector width by
// ctest (KILN_LLVM_VECTOR_BITS: 16, 8, 4 lanes).

float from_bits(uint32_t b) {
  float f;
  std::memcpy(&f, &b, sizeof f);
  return f;
}

uint32_t bits_of(float f) {
  uint32_t b;
  std::memcpy(&b, &f, sizeof b);
  return b;
}

// Floats in order as integers, adjacent floats 1 apart (+0 and -0 both 0), so
// the distance in ulps is a difference.
int64_t ordered(float f) {
  const uint32_t b = bits_of(f);
  return b & 0x80000000u ? -int64_t(b & 0x7fffffffu) : int64_t(b);
}

kir::KernelFn f32_kernel(Op op) {
  kir::Kernel k = make_kernel(std::string(kir::op_name(op)) + "_f32", kir::Kind::Pointwise, 1,
                              {{DType::Float32, Inner::Contiguous, false}, {DType::Float32, Inner::Contiguous, true}},
                              [op](kir::Builder& b) { add_store(b, 1, b.unary(op, b.load(0))); });
  return LlvmBackend::get().compile(k).fn;
}

// out[i] = op(x[i]): the vector loop over the first n - n % width, the scalar tail after.
std::vector<float> run_f32(kir::KernelFn fn, const std::vector<float>& x) {
  std::vector<float> out(x.size());
  char* ptrs[] = {reinterpret_cast<char*>(const_cast<float*>(x.data())), reinterpret_cast<char*>(out.data())};
  const int64_t n = int64_t(x.size()), sizes[] = {n}, strides[] = {1, 1};
  fn(ptrs, sizes, strides, nullptr, 0, n);
  return out;
}

// The correctly rounded value (double's functions are within an ulp of double;
// rounding to float also rounds subnormal results right).
float ref_f32(Op op, float x) {
  const double d = x;
  switch (op) {
    case Op::Erf: return float(std::erf(d));
    case Op::Exp: return float(std::exp(d));
    case Op::Tanh: return float(std::tanh(d));
    default: return NAN;
  }
}

struct Worst {
  Op op;
  int64_t ulps = 0, checked = 0, nan_failures = 0;
  float x = 0, got = 0;
  void add(float xi, float got_i) {
    ++checked;
    const float want = ref_f32(op, xi);
    if (std::isnan(want) || std::isnan(got_i)) {
      if (!(std::isnan(want) && std::isnan(got_i)) && nan_failures++ < 5)
        ADD_FAILURE() << kir::op_name(op) << "(" << xi << ") = " << got_i << ", want " << want;
      return;
    }
    const int64_t d = std::abs(ordered(got_i) - ordered(want));
    if (d > ulps) ulps = d, x = xi, got = got_i;
  }
};

// Feeds inputs to the kernel in chunks that end with a few elements for the
// scalar tail, and keeps the worst error.
class EveryInput {
 public:
  explicit EveryInput(Op op) : fn_(f32_kernel(op)), worst_{op} { xs_.reserve(kChunk); }
  void visit(float x) {
    xs_.push_back(x);
    if (xs_.size() >= kChunk) flush();
  }
  // Every float from `centre` - 2^16 to `centre` + 2^16 patterns.
  void around(float centre) {
    for (uint32_t b = bits_of(centre) - (1u << 16); b < bits_of(centre) + (1u << 16); ++b) visit(from_bits(b));
  }
  // Checks and prints the result: at most `bound` ulp, NaN exactly.
  void finish(int64_t bound, int64_t min_checked) {
    flush();
    const int width = LlvmBackend::get().vector_width_f32();
    const std::string name = kir::op_name(worst_.op);
    std::printf("f32 inline %s, %d lanes: %lld inputs, max error %lld ulp at x=%.9g (got %.9g, want %.9g)\n",
                name.c_str(), width, static_cast<long long>(worst_.checked), static_cast<long long>(worst_.ulps),
                double(worst_.x), double(worst_.got), double(ref_f32(worst_.op, worst_.x)));
    ::testing::Test::RecordProperty("f32_inline_" + name + "_max_ulp_" + std::to_string(width),
                                    std::to_string(worst_.ulps));
    EXPECT_GT(worst_.checked, min_checked);
    EXPECT_LE(worst_.ulps, bound) << name << " at x=" << worst_.x << " (" << width << " lanes)";
    EXPECT_EQ(worst_.nan_failures, 0);
    EXPECT_EQ(eager_differs_, 0) << name << ": the eager kernels compute other bits";
  }

 private:
  static constexpr size_t kChunk = (size_t(1) << 20) + 5;
  void flush() {
    const std::vector<float> out = run_f32(fn_, xs_);
    for (size_t i = 0; i < xs_.size(); ++i) {
      worst_.add(xs_[i], out[i]);
      // The eager kernels' C++ (core/float_math.h): the same bits.
      const float eager = eager_f32(worst_.op, xs_[i]);
      if (bits_of(eager) != bits_of(out[i]) && !(std::isnan(eager) && std::isnan(out[i])) && eager_differs_++ < 5)
        ADD_FAILURE() << kir::op_name(worst_.op) << "(" << xs_[i] << "): eager " << eager << ", compiled " << out[i];
    }
    xs_.clear();
  }
  static float eager_f32(Op op, float x) {
    switch (op) {
      case Op::Erf: return fmath::erf_f32(x);
      case Op::Exp: return fmath::exp_f32(x);
      case Op::Tanh: return fmath::tanh_f32(x);
      default: return NAN;
    }
  }
  int64_t eager_differs_ = 0;
  kir::KernelFn fn_;
  Worst worst_;
  std::vector<float> xs_;
};

// Every 16th float in [-10, 10] (positives at 0 mod 16, negatives at 8), and
// every float around 0 (the subnormals), the switch between the two forms
// (1.3), where erf rounds to 1 (3.92) and the clamp (4): within 4 ulp of the
// correctly rounded value.
TEST(LlvmVectorMath, ErfFloat32EveryInput) {
  EveryInput every(Op::Erf);
  auto visit = [&](uint32_t b) {
    every.visit(from_bits(b));
    every.visit(from_bits((b ^ 8u) | 0x80000000u));
  };
  for (uint32_t b = 0; b <= bits_of(10.0f); b += 16) visit(b);
  for (uint32_t b = 0; b < (1u << 20); ++b) visit(b);
  for (float centre : {1.3f, 3.92f, 4.0f})
    for (uint32_t b = bits_of(centre) - (1u << 16); b < bits_of(centre) + (1u << 16); ++b) visit(b);
  every.finish(4, int64_t(1) << 27);
}

// Every 16th float of both signs up to infinity (positives at 0 mod 16,
// negatives at 8), and every float around 0, where exp(x) first differs from
// 1 (+-6e-8), where it overflows (88.72), turns subnormal (-87.34) and
// underflows to 0 (-103.28 rounds to the smallest subnormal, -103.97 to 0),
// and where the two-step scaling changes n (+-ln2/2): within 2 ulp.
TEST(LlvmVectorMath, ExpFloat32EveryInput) {
  EveryInput every(Op::Exp);
  for (uint32_t b = 0; b < bits_of(std::numeric_limits<float>::infinity()); b += 16) {
    every.visit(from_bits(b));
    every.visit(from_bits((b ^ 8u) | 0x80000000u));
  }
  for (uint32_t b = 0; b < (1u << 20); ++b) every.visit(from_bits(b)), every.visit(-from_bits(b));
  for (float centre : {6e-8f, -6e-8f, 88.72f, -87.34f, -103.28f, -103.97f, 0.3466f, -0.3466f}) every.around(centre);
  every.finish(2, int64_t(1) << 28);
}

// Every 16th float in [-10, 10] (positives at 0 mod 16, negatives at 8), and
// every float around 0 (the subnormals), the switch between the two forms
// (0.6) and where tanh rounds to 1 (9.01): within 4 ulp.
TEST(LlvmVectorMath, TanhFloat32EveryInput) {
  EveryInput every(Op::Tanh);
  for (uint32_t b = 0; b <= bits_of(10.0f); b += 16) {
    every.visit(from_bits(b));
    every.visit(from_bits((b ^ 8u) | 0x80000000u));
  }
  for (uint32_t b = 0; b < (1u << 20); ++b) every.visit(from_bits(b)), every.visit(-from_bits(b));
  for (float centre : {0.6f, -0.6f, 9.01f, -9.01f}) every.around(centre);
  every.finish(4, int64_t(1) << 27);
}

// Each value three times so both the vector body and the scalar tail see it.
std::vector<float> thrice(std::initializer_list<float> values) {
  std::vector<float> xs;
  for (int rep = 0; rep < 3; ++rep) xs.insert(xs.end(), values.begin(), values.end());
  return xs;
}

constexpr float kInf = std::numeric_limits<float>::infinity(), kNan = std::numeric_limits<float>::quiet_NaN();
constexpr float kTiny = std::numeric_limits<float>::denorm_min(), kSmallest = std::numeric_limits<float>::min();
constexpr float kMax = std::numeric_limits<float>::max();

// Exact where erf is exact: zeros with their signs, +-1 at infinities and
// beyond |x| = 4, NaN; 2/sqrt(pi) * x to an ulp for tiny and subnormal x.
TEST(LlvmVectorMath, ErfFloat32SpecialValues) {
  std::vector<float> xs = thrice({0.0f, -0.0f, kInf, -kInf, kNan, -kNan, kTiny, -kTiny, 3 * kTiny, 1e-40f, kSmallest,
                                  -kSmallest, 1e-30f, -1e-20f, 1e-8f, 4.0f, -4.0f, 5.5f, 1e30f, -kMax});
  for (uint32_t b = bits_of(4.0f); b < bits_of(kInf); b += 4093) xs.push_back(from_bits(b));  // all exactly +-1
  for (uint32_t b = bits_of(4.0f); b < bits_of(kInf); b += 4093) xs.push_back(-from_bits(b));
  const std::vector<float> out = run_f32(f32_kernel(Op::Erf), xs);
  for (size_t i = 0; i < xs.size(); ++i) {
    const float x = xs[i], got = out[i];
    if (std::isnan(x)) {
      EXPECT_TRUE(std::isnan(got)) << "erf(NaN) = " << got;
    } else if (x == 0) {
      EXPECT_EQ(bits_of(got), bits_of(x)) << "erf(" << x << ") = " << got << ": zero with its sign";
    } else if (std::fabs(x) >= 4) {
      EXPECT_EQ(got, std::copysign(1.0f, x)) << "erf(" << x << ")";
    } else if (std::fabs(x) < 1e-4f) {
      const float want = float(double(x) * 1.1283791670955126);  // 2/sqrt(pi) x: the rest is below an ulp
      EXPECT_LE(std::abs(ordered(got) - ordered(want)), 1) << "erf(" << x << ") = " << got << ", want " << want;
    }
  }
}

// Exact where exp is exact: NaN, +inf above 88.7228394 (the last float with
// a finite exp is 88.7228317), +0 at -inf and below -103.972 (the first float
// whose exp rounds to 0), 1 at zeros and |x| < 2^-25; subnormal results and
// the extremes within an ulp.
TEST(LlvmVectorMath, ExpFloat32SpecialValues) {
  std::vector<float> xs =
      thrice({0.0f, -0.0f, kInf, -kInf, kNan, -kNan, kTiny, -kTiny, kSmallest, -1e-30f, 2.9e-8f, -2.9e-8f, 88.7228317f,
              88.7228394f, 88.73f, 89.0f, 100.0f, 1e30f, kMax, -87.3365479f, -87.5f, -100.0f, -103.2789f, -103.9720f,
              -103.9721f, -104.0f, -110.0f, -120.0f, -1e30f, -kMax, 1.0f, -1.0f, 0.5f * 0.693147182f});
  for (uint32_t b = bits_of(88.7228394f); b < bits_of(kInf); b += 4093) xs.push_back(from_bits(b));  // all +inf
  for (uint32_t b = bits_of(103.9721f); b < bits_of(kInf); b += 4093) xs.push_back(-from_bits(b));  // all +0
  const std::vector<float> out = run_f32(f32_kernel(Op::Exp), xs);
  for (size_t i = 0; i < xs.size(); ++i) {
    const float x = xs[i], got = out[i];
    if (std::isnan(x)) {
      EXPECT_TRUE(std::isnan(got)) << "exp(NaN) = " << got;
    } else if (x >= 88.7228394f) {
      EXPECT_EQ(got, kInf) << "exp(" << x << ")";
    } else if (x <= -103.9721f) {
      EXPECT_EQ(bits_of(got), bits_of(0.0f)) << "exp(" << x << ") = " << got << ": +0";
    } else if (std::fabs(x) < 2.9e-8f) {
      EXPECT_EQ(got, 1.0f) << "exp(" << x << ")";
    } else {
      const float want = ref_f32(Op::Exp, x);
      EXPECT_LE(std::abs(ordered(got) - ordered(want)), 1) << "exp(" << x << ") = " << got << ", want " << want;
    }
  }
  EXPECT_EQ(bits_of(run_f32(f32_kernel(Op::Exp), {-103.2789f})[0]), 1u) << "exp(-103.2789) is the smallest subnormal";
}

// Exact where tanh is exact: zeros with their signs, NaN, +-1 at infinities
// and beyond |x| = 9.02, x itself for |x| < 2^-27 (subnormals included);
// within an ulp of x for |x| < 1e-4 (tanh rounds to x: x^3/3 is under half
// an ulp); odd, bit for bit.
TEST(LlvmVectorMath, TanhFloat32SpecialValues) {
  std::vector<float> xs = thrice({0.0f, -0.0f, kInf, -kInf, kNan, -kNan, kTiny, -kTiny, 3 * kTiny, 1e-40f, kSmallest,
                                  -kSmallest, 1e-30f, -1e-20f, 5e-9f, -7e-9f, 1e-8f, 9.5e-5f, -3e-5f, 9.02f, -9.02f, 20.0f, 1e30f, -kMax});
  for (uint32_t b = bits_of(9.02f); b < bits_of(kInf); b += 4093) xs.push_back(from_bits(b));  // all exactly +-1
  for (uint32_t b = bits_of(9.02f); b < bits_of(kInf); b += 4093) xs.push_back(-from_bits(b));
  const size_t listed = xs.size();
  for (int i = 0; i < 4096; ++i) xs.push_back(-12.0f + 24.0f * float(i) / 4096.0f);
  const std::vector<float> out = run_f32(f32_kernel(Op::Tanh), xs);
  for (size_t i = 0; i < xs.size(); ++i) {
    const float x = xs[i], got = out[i];
    if (std::isnan(x)) {
      EXPECT_TRUE(std::isnan(got)) << "tanh(NaN) = " << got;
    } else if (std::fabs(x) < 0x1p-27f) {
      EXPECT_EQ(bits_of(got), bits_of(x)) << "tanh(" << x << ") = " << got << ": x itself, zeros with their signs";
    } else if (std::fabs(x) < 1e-4f) {
      EXPECT_LE(std::abs(ordered(got) - ordered(x)), 1) << "tanh(" << x << ") = " << got;
    } else if (std::fabs(x) >= 9.02f) {
      EXPECT_EQ(got, std::copysign(1.0f, x)) << "tanh(" << x << ")";
    }
  }
  const std::vector<float> negated = [&] {
    std::vector<float> n(xs.begin() + std::ptrdiff_t(listed), xs.end());
    for (float& v : n) v = -v;
    return run_f32(f32_kernel(Op::Tanh), n);
  }();
  for (size_t i = listed; i < xs.size(); ++i)
    EXPECT_EQ(bits_of(negated[i - listed]), bits_of(-out[i])) << "tanh(-" << xs[i] << ") != -tanh(" << xs[i] << ")";
}

// The scalar tail runs the same code as the vector body: one element at a time
// (all tail) gives the same bits as the same elements in a vector.
void tail_matches_body(Op op, float lo, float hi) {
  const kir::KernelFn fn = f32_kernel(op);
  std::vector<float> xs;
  for (int i = 0; i < 4096; ++i) xs.push_back(lo + (hi - lo) * float(i) / 4096.0f);
  for (float v : {0.0f, -0.0f, kInf, -kInf, kNan, kTiny, -kTiny}) xs.push_back(v);
  const std::vector<float> body = run_f32(fn, xs);
  int mismatches = 0;
  for (size_t i = 0; i < xs.size(); ++i) {
    const float tail = run_f32(fn, {xs[i]})[0];
    if (bits_of(tail) != bits_of(body[i]) && mismatches++ < 5)
      ADD_FAILURE() << kir::op_name(op) << "(" << xs[i] << "): tail " << tail << ", body " << body[i];
  }
  EXPECT_EQ(mismatches, 0);
}

TEST(LlvmVectorMath, ErfFloat32TailMatchesBody) { tail_matches_body(Op::Erf, -5.0f, 5.0f); }
TEST(LlvmVectorMath, ExpFloat32TailMatchesBody) { tail_matches_body(Op::Exp, -110.0f, 95.0f); }
TEST(LlvmVectorMath, TanhFloat32TailMatchesBody) { tail_matches_body(Op::Tanh, -12.0f, 12.0f); }

}  // namespace
}  // namespace kiln::jit::test

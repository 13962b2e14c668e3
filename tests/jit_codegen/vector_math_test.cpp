// Accuracy of the generated transcendentals (libmvec in the vector loop,
// libm in the scalar tail) against the functions computed in a wider type:
// the max error in ulp over many inputs per range, printed and bounded, and
// the special values (NaN, infinities, zeros, overflow) exactly right.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

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

// 2^17 + 5 inputs per range: all but the last few run through libmvec.
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
      {Op::Erf, {-5, 5}, {}, 8, 4},
      {Op::Erf, {1.5, 4}, {}, 8, 4},
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

}  // namespace
}  // namespace kiln::jit::test

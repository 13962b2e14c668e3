// core/ops/pointwise_math.cpp: values PyTorch 2.x gives (hand-checked), dtype
// rules, nan/inf/-0.0, ints and bool, broadcasting, strided inputs, errors,
// in-place forms and aliases, and the float64 samples gradcheck_test.cpp
// differentiates numerically.
#include <cmath>
#include <limits>

#include "core/dispatch.h"
#include "core/op_table.h"
#include "core/ops.h"
#include "tests/core/gradcheck.h"
#include "tests/core/test_util.h"

namespace kiln {
namespace {
using testing::grad_input;
using testing::Near;
using testing::T;

constexpr double kNan = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

Tensor I64(std::vector<double> v) { return T(std::move(v), {}, DType::Int64); }
Tensor B(std::vector<double> v) { return T(std::move(v), {}, DType::Bool); }
Tensor py(double v) { return scalar_tensor(v, DType::Float64, true); }
Tensor py_int(int64_t v) { return scalar_tensor(double(v), DType::Int64, true); }
Tensor op(const char* name, std::initializer_list<Value> args) { return invoke(name, args); }
std::vector<bool> bools(const Tensor& t) {
  std::vector<bool> r;
  for (double v : to_double_vector(t)) r.push_back(v != 0);
  return r;
}
Tensor transposed(const Tensor& t) { return make_view(t, {t.size(1), t.size(0)}, {t.stride(1), t.stride(0)}, t.offset()); }

// ---- rounding ---------------------------------------------------------------------------

TEST(Rounding, FloatValuesAndSigns) {
  Tensor x = T({-2.5, -1.5, -0.5, 0.5, 1.5, 2.5, -0.2, 2.7});
  EXPECT_TRUE(Near(floor(x), {-3, -2, -1, 0, 1, 2, -1, 2}, {8}));
  EXPECT_TRUE(Near(ceil(x), {-2, -1, -0.0, 1, 2, 3, -0.0, 3}, {8}));
  EXPECT_TRUE(Near(trunc(x), {-2, -1, -0.0, 0, 1, 2, -0.0, 2}, {8}));
  EXPECT_TRUE(Near(round(x), {-2, -2, -0.0, 0, 2, 2, -0.0, 3}, {8}));  // half to even
  EXPECT_TRUE(std::signbit(ceil(T({-0.5})).item_double()));
  EXPECT_TRUE(std::signbit(round(T({-0.4})).item_double()));
  EXPECT_TRUE(Near(floor(T({kNan, kInf, -kInf})), {kNan, kInf, -kInf}, {3}));
  EXPECT_TRUE(Near(op("fix", {x}), to_double_vector(trunc(x)), {8}));
}

TEST(Rounding, IntegersAreCopiedBoolIsAnError) {
  Tensor i = T({-3, 7}, {2}, DType::Int32);
  for (const char* name : {"floor", "ceil", "trunc", "round", "fix"}) {
    Tensor r = op(name, {i});
    EXPECT_EQ(r.dtype(), DType::Int32) << name;
    EXPECT_TRUE(Near(r, {-3, 7}, {2})) << name;
  }
  EXPECT_KILN_ERROR(floor(B({1, 0})), "\"floor_vml_cpu\" not implemented for 'Bool'");
  EXPECT_KILN_ERROR(round(B({1})), "\"round_vml_cpu\" not implemented for 'Bool'");
  EXPECT_KILN_ERROR(op("frac", {I64({1})}), "\"frac_cpu\" not implemented for 'Long'");
}

TEST(Rounding, Decimals) {
  Tensor x = T({1.2345, -2.5678, 1234.5, 0.125}, {}, DType::Float64);
  EXPECT_TRUE(Near(op("round", {x}), {1, -3, 1234, 0}, {4}));
  Tensor two = call_op("round", std::vector<Value>{x}, {{"decimals", Value(int64_t(2))}})[0];
  EXPECT_TRUE(Near(two, {1.23, -2.57, 1234.5, 0.12}, {4}, 1e-12));  // 12.5 rounds to even
  Tensor neg = call_op("round", std::vector<Value>{x}, {{"decimals", Value(int64_t(-2))}})[0];
  EXPECT_TRUE(Near(neg, {0, -0.0, 1200, 0}, {4}, 1e-12));
  // Integers have no decimals kernel, not even for decimals=0.
  EXPECT_KILN_ERROR(call_op("round", std::vector<Value>{I64({1})}, {{"decimals", Value(int64_t(1))}}),
                    "\"round_cpu\" not implemented for 'Long'");
  EXPECT_KILN_ERROR(call_op("round", std::vector<Value>{I64({1})}, {{"decimals", Value(int64_t(0))}}),
                    "\"round_vml_cpu\" not implemented for 'Long'");
}

TEST(Rounding, FracReciprocalSquare) {
  EXPECT_TRUE(Near(op("frac", {T({-2.75, 2.75, kInf, -0.0})}), {-0.75, 0.75, kNan, 0}, {4}));
  Tensor r = reciprocal(I64({2, 0, -4}));
  EXPECT_EQ(r.dtype(), DType::Float32);  // integers promote
  EXPECT_TRUE(Near(r, {0.5, kInf, -0.25}, {3}));
  EXPECT_TRUE(Near(reciprocal(T({-0.0})), {-kInf}, {}));
  Tensor sq = op("square", {I64({-3, 4})});
  EXPECT_EQ(sq.dtype(), DType::Int64);
  EXPECT_TRUE(Near(sq, {9, 16}, {2}));
  Tensor sb = op("square", {B({1, 0})});
  EXPECT_EQ(sb.dtype(), DType::Int64);  // pow(bool, 2): an int exponent promotes bool
  EXPECT_TRUE(Near(sb, {1, 0}, {2}));
  Tensor s = T({1, 2, 3});
  op("square_", {s});
  EXPECT_TRUE(Near(s, {1, 4, 9}, {3}));
  EXPECT_KILN_ERROR(op("square_", {B({1})}), "result type Long can't be cast to the desired output type Bool");
}

// ---- one-sided clamps ------------------------------------------------------------------

TEST(ClampMinMax, ScalarAndTensorBounds) {
  Tensor x = T({-2, -0.5, 0.5, 2, kNan});
  EXPECT_TRUE(Near(op("clamp_min", {x, 0.0}), {0, 0, 0.5, 2, kNan}, {5}));
  EXPECT_TRUE(Near(op("clamp_max", {x, 0.0}), {-2, -0.5, 0, 0, kNan}, {5}));
  EXPECT_TRUE(Near(op("clamp_min", {x, kNan}), {kNan, kNan, kNan, kNan, kNan}, {5}));  // a nan bound fills
  EXPECT_TRUE(Near(op("clamp_min.Tensor", {T({1, 5}), T({3})}), {3, 5}, {2}));
  EXPECT_TRUE(Near(op("clamp_max.Tensor", {T({1, 5}), T({3, kNan})}), {1, kNan}, {2}));
  // Broadcasting and a strided self.
  Tensor m = transposed(reshape(arange(0, 6, 1, DType::Float32), {2, 3}));
  EXPECT_TRUE(Near(op("clamp_min.Tensor", {m, T({1, 4}, {2})}), {1, 4, 1, 4, 2, 5}, {3, 2}));
}

TEST(ClampMinMax, DtypesAndErrors) {
  Tensor i = I64({-5, 5});
  Tensor a = op("clamp_min", {i, int64_t(0)});
  EXPECT_EQ(a.dtype(), DType::Int64);
  EXPECT_TRUE(Near(a, {0, 5}, {2}));
  Tensor f = op("clamp_max", {i, 0.5});  // a float bound promotes an integral self
  EXPECT_EQ(f.dtype(), DType::Float32);
  EXPECT_TRUE(Near(f, {-5, 0.5}, {2}));
  EXPECT_KILN_ERROR(op("clamp_min", {B({1}), true}), "\"clamp_min_scalar_cpu\" not implemented for 'Bool'");
  Tensor s = T({-1, 1});
  op("clamp_max_", {s, 0.25});
  EXPECT_TRUE(Near(s, {-1, 0.25}, {2}));
  Tensor si = I64({1});
  EXPECT_KILN_ERROR(op("clamp_min_", {si, 0.5}), "result type Float can't be cast to the desired output type Long");
}

TEST(ClampMinMax, ClipIsClamp) {
  EXPECT_TRUE(Near(op("clip", {T({-2, 0, 2}), -1.0, 1.0}), {-1, 0, 1}, {3}));
  EXPECT_TRUE(Near(call_op("clip", std::vector<Value>{T({-2, 0, 2})}, {{"max", Value(0.5)}})[0], {-2, 0, 0.5}, {3}));
  EXPECT_KILN_ERROR(op("clip", {T({1}), Value(), Value()}), "At least one of 'min' or 'max' must not be None");
}

// The earlier report: a composite clamp_min built as invoke("clamp", {x, min, None})
// must bind (and any binding error must be a kiln::Error, not a crash).
TEST(ClampMinMax, ClampWithNoneBoundBinds) {
  EXPECT_TRUE(Near(invoke("clamp", {T({-1, 1}), 0.0, Value()}), {0, 1}, {2}));
  EXPECT_TRUE(Near(invoke("clamp.Tensor", {T({-1, 1}), T({0}), Value()}), {0, 1}, {2}));
  EXPECT_KILN_ERROR(invoke("clamp", {T({-1, 1}), T({0, 0}), Value()}), "argument 'min' must be Number, not Tensor");
}

// ---- classification --------------------------------------------------------------------

TEST(Classification, FloatsIntsBools) {
  Tensor x = T({1, kNan, kInf, -kInf, -0.0, 0.0});
  EXPECT_EQ(isnan(x).dtype(), DType::Bool);
  EXPECT_EQ(bools(isnan(x)), (std::vector<bool>{0, 1, 0, 0, 0, 0}));
  EXPECT_EQ(bools(isinf(x)), (std::vector<bool>{0, 0, 1, 1, 0, 0}));
  EXPECT_EQ(bools(isfinite(x)), (std::vector<bool>{1, 0, 0, 0, 1, 1}));
  EXPECT_EQ(bools(op("isposinf", {x})), (std::vector<bool>{0, 0, 1, 0, 0, 0}));
  EXPECT_EQ(bools(op("isneginf", {x})), (std::vector<bool>{0, 0, 0, 1, 0, 0}));
  EXPECT_EQ(bools(op("signbit", {x})), (std::vector<bool>{0, 0, 0, 1, 1, 0}));
  EXPECT_EQ(bools(op("signbit", {T({-kNan})})), (std::vector<bool>{1}));
  Tensor i = I64({-2, 0, 3});
  EXPECT_EQ(bools(isnan(i)), (std::vector<bool>{0, 0, 0}));
  EXPECT_EQ(bools(isfinite(i)), (std::vector<bool>{1, 1, 1}));
  EXPECT_EQ(bools(op("signbit", {i})), (std::vector<bool>{1, 0, 0}));
  EXPECT_EQ(bools(op("signbit", {B({1, 0})})), (std::vector<bool>{0, 0}));
  EXPECT_EQ(bools(isinf(B({1}))), (std::vector<bool>{0}));
}

TEST(Classification, NanToNum) {
  Tensor x = T({kNan, kInf, -kInf, 1.5});
  EXPECT_TRUE(Near(op("nan_to_num", {x}), {0, 3.4028234663852886e38, -3.4028234663852886e38, 1.5}, {4}));
  EXPECT_TRUE(Near(op("nan_to_num", {x, 1.0, 2.0, -2.0}), {1, 2, -2, 1.5}, {4}));
  Tensor d = op("nan_to_num", {to_dtype(x, DType::Float64), Value(), Value(), 7.0});
  EXPECT_EQ(d.dtype(), DType::Float64);
  EXPECT_TRUE(Near(d, {0, 1.7976931348623157e308, 7, 1.5}, {4}, 1e-12));
  Tensor h = op("nan_to_num", {to_dtype(x, DType::Float16)});
  EXPECT_TRUE(Near(h, {0, 65504, -65504, 1.5}, {4}));
  Tensor i = op("nan_to_num", {I64({3, -4})});
  EXPECT_EQ(i.dtype(), DType::Int64);
  EXPECT_TRUE(Near(i, {3, -4}, {2}));
  Tensor s = clone(x);
  op("nan_to_num_", {s, 0.5});
  EXPECT_TRUE(Near(s, {0.5, 3.4028234663852886e38, -3.4028234663852886e38, 1.5}, {4}));
}

// ---- logical and bitwise ---------------------------------------------------------------

TEST(Logical, AnyDtypeToBool) {
  Tensor a = T({0, 1, kNan, -0.0}), b = I64({1, 0, 2, 3});
  EXPECT_EQ(logical_and(a, b).dtype(), DType::Bool);
  EXPECT_EQ(bools(logical_and(a, b)), (std::vector<bool>{0, 0, 1, 0}));
  EXPECT_EQ(bools(logical_or(a, b)), (std::vector<bool>{1, 1, 1, 1}));
  EXPECT_EQ(bools(logical_xor(a, b)), (std::vector<bool>{1, 1, 0, 1}));
  EXPECT_EQ(bools(logical_and(B({1, 1}), py(0.0))), (std::vector<bool>{0, 0}));
  // In place keeps self's dtype.
  Tensor s = T({2, 0, 3});
  op("logical_or_", {s, B({0, 0, 1})});
  EXPECT_EQ(s.dtype(), DType::Float32);
  EXPECT_TRUE(Near(s, {1, 0, 1}, {3}));
}

TEST(Bitwise, IntsAndBool) {
  Tensor x = I64({12, -1, 5}), y = I64({10, 7, -8});
  EXPECT_TRUE(Near(op("bitwise_and", {x, y}), {8, 7, 0}, {3}));
  EXPECT_TRUE(Near(op("bitwise_or", {x, y}), {14, -1, -3}, {3}));
  EXPECT_TRUE(Near(op("bitwise_xor", {x, y}), {6, -8, -3}, {3}));
  EXPECT_TRUE(Near(bitwise_not(x), {-13, 0, -6}, {3}));
  Tensor i32 = op("bitwise_and", {T({6}, {1}, DType::Int32), py_int(3)});
  EXPECT_EQ(i32.dtype(), DType::Int32);
  EXPECT_TRUE(Near(i32, {2}, {1}));
  Tensor p = B({1, 1, 0}), q = B({1, 0, 0});
  EXPECT_EQ(op("bitwise_xor", {p, q}).dtype(), DType::Bool);
  EXPECT_EQ(bools(op("bitwise_and", {p, q})), (std::vector<bool>{1, 0, 0}));
  EXPECT_EQ(bools(op("bitwise_or", {p, q})), (std::vector<bool>{1, 1, 0}));
  EXPECT_EQ(bools(op("bitwise_xor", {p, q})), (std::vector<bool>{0, 1, 0}));
  EXPECT_EQ(bools(bitwise_not(p)), (std::vector<bool>{0, 0, 1}));
  EXPECT_EQ(bitwise_not(T({-2147483648.0}, {1}, DType::Int32)).item_int(), 2147483647);
  // Broadcast over a strided input.
  Tensor m = transposed(reshape(arange(0, 6, 1, DType::Int64), {2, 3}));
  EXPECT_TRUE(Near(op("bitwise_and", {m, I64({1, 2})}), {0, 2, 1, 0, 0, 0}, {3, 2}));
}

TEST(Bitwise, FloatsAreErrors) {
  EXPECT_KILN_ERROR(op("bitwise_and", {T({1}), T({1})}), "\"bitwise_and_cpu\" not implemented for 'Float'");
  EXPECT_KILN_ERROR(op("bitwise_or", {I64({1}), py(1.5)}), "\"bitwise_or_cpu\" not implemented for 'Float'");
  EXPECT_KILN_ERROR(bitwise_not(T({1}, {1}, DType::Float64)), "\"bitwise_not_cpu\" not implemented for 'Double'");
  Tensor s = B({1, 0});
  EXPECT_KILN_ERROR(op("bitwise_and_", {s, I64({1, 1})}), "result type Long can't be cast to the desired output type Bool");
}

// ---- float functions ------------------------------------------------------------------

TEST(FloatUnary, ValuesAndPromotion) {
  Tensor x = T({0.5, -0.25}, {}, DType::Float64);
  auto check = [&](const char* name, double (*f)(double)) {
    Tensor r = op(name, {x});
    EXPECT_EQ(r.dtype(), DType::Float64) << name;
    EXPECT_TRUE(Near(r, {f(0.5), f(-0.25)}, {2}, 1e-14)) << name;
  };
  check("expm1", [](double v) { return std::expm1(v); });
  check("exp2", [](double v) { return std::exp2(v); });
  check("tan", [](double v) { return std::tan(v); });
  check("asin", [](double v) { return std::asin(v); });
  check("acos", [](double v) { return std::acos(v); });
  check("atan", [](double v) { return std::atan(v); });
  check("sinh", [](double v) { return std::sinh(v); });
  check("cosh", [](double v) { return std::cosh(v); });
  check("asinh", [](double v) { return std::asinh(v); });
  check("atanh", [](double v) { return std::atanh(v); });
  check("erfc", [](double v) { return std::erfc(v); });
  check("arcsin", [](double v) { return std::asin(v); });
  EXPECT_TRUE(Near(op("log2", {T({8, 0.25, 0, -1})}), {3, -2, -kInf, kNan}, {4}));
  EXPECT_TRUE(Near(op("log10", {T({1000, 0.01})}), {3, -2}, {2}));
  EXPECT_TRUE(Near(op("acosh", {T({1, 2, 0.5})}), {0, std::acosh(2.0), kNan}, {3}));
  Tensor i = op("exp2", {I64({3, -1})});
  EXPECT_EQ(i.dtype(), DType::Float32);
  EXPECT_TRUE(Near(i, {8, 0.5}, {2}));
  EXPECT_EQ(op("sinh", {B({1})}).dtype(), DType::Float32);
  EXPECT_TRUE(Near(op("expm1", {T({1e-10}, {}, DType::Float64)}), {1e-10}, {}, 1e-12));  // no cancellation
}

TEST(FloatUnary, Erfinv) {
  Tensor y = T({0, 0.5, -0.9, 0.999, 1, -1, 1.5}, {}, DType::Float64);
  Tensor x = op("erfinv", {y});
  EXPECT_TRUE(Near(x, {0, 0.4769362762044699, -1.1630871536766743, 2.3267537655135246, kInf, -kInf, kNan}, {7}, 1e-13));
  Tensor back = invoke("erf", {op("erfinv", {T({-0.99, -0.3, 0.1, 0.7, 0.95})})});
  EXPECT_TRUE(Near(back, {-0.99, -0.3, 0.1, 0.7, 0.95}, {5}, 1e-6));
}

// Closed forms: psi(1) = -gamma, psi(1/2) = -gamma - 2 ln 2, psi1(1) = pi^2 / 6,
// psi1(1/2) = pi^2 / 2, and the reflection side: psi(-1/2) = psi(1/2) + 2,
// psi1(-1/2) = psi1(1/2) + 4. Poles: digamma is NaN at negative integers,
// -inf at +0; lgamma is inf at 0 and the negative integers.
TEST(FloatUnary, GammaFamily) {
  const double g = 0.5772156649015329, ln2 = std::log(2.0), pi2 = M_PI * M_PI;
  Tensor x = T({1, 0.5, -0.5, 30}, {}, DType::Float64);
  EXPECT_TRUE(Near(op("digamma", {x}), {-g, -g - 2 * ln2, -g - 2 * ln2 + 2, 3.384438132685525}, {4}, 1e-13));
  EXPECT_TRUE(Near(op("polygamma", {int64_t(1), x}), {pi2 / 6, pi2 / 2, pi2 / 2 + 4, 0.033895060357739926}, {4}, 1e-12));
  EXPECT_TRUE(Near(op("lgamma", {x}), {0, 0.5 * std::log(M_PI), std::log(2 * std::sqrt(M_PI)), std::lgamma(30.0)}, {4}, 1e-13));
  EXPECT_TRUE(Near(op("digamma", {T({0, -1, -2})}), {-kInf, kNan, kNan}, {3}));
  EXPECT_TRUE(Near(op("lgamma", {T({0, -1})}), {kInf, kInf}, {2}));
  EXPECT_EQ(op("lgamma", {I64({3})}).dtype(), DType::Float32);
  // Beyond trigamma through the Hurwitz zeta: psi2(1) = -2 zeta(3), psi2(1/2) = -14 zeta(3),
  // psi3(1) = pi^4 / 15; a pole at 0.
  const double zeta3 = 1.2020569031595942;
  EXPECT_TRUE(Near(op("polygamma", {int64_t(2), T({1, 0.5}, {}, DType::Float64)}), {-2 * zeta3, -14 * zeta3}, {2},
                   1e-12));
  EXPECT_TRUE(Near(op("polygamma", {int64_t(3), T({1, 0}, {}, DType::Float64)}), {pi2 * pi2 / 15, kInf}, {2}, 1e-12));
  EXPECT_THROW(op("polygamma", {int64_t(-1), x}), Error);
}

TEST(FloatUnary, Sinc) {
  EXPECT_TRUE(Near(op("sinc", {T({0, 0.5, -1.5}, {}, DType::Float64)}), {1, 2 / M_PI, -2 / (3 * M_PI)}, {3}, 1e-15));
}

TEST(FloatUnary, DegreesAndRadians) {
  Tensor r = op("deg2rad", {I64({180, -90})});
  EXPECT_EQ(r.dtype(), DType::Float32);
  EXPECT_TRUE(Near(r, {3.14159265, -1.57079633}, {2}));
  EXPECT_TRUE(Near(op("rad2deg", {T({3.141592653589793}, {}, DType::Float64)}), {180}, {}, 1e-12));
  Tensor s = T({90});
  op("deg2rad_", {s});
  EXPECT_TRUE(Near(s, {1.5707963}, {}));
  Tensor si = I64({1});
  EXPECT_KILN_ERROR(op("rad2deg_", {si}), "result type Float can't be cast to the desired output type Long");
}

TEST(FloatBinary, Values) {
  EXPECT_TRUE(Near(op("atan2", {T({1, -1, 0, -0.0}), T({-1, -1, -1, -1})}),
                   {3 * M_PI / 4, -3 * M_PI / 4, M_PI, -M_PI}, {4}));
  Tensor a2 = op("arctan2", {I64({1}), I64({1})});
  EXPECT_EQ(a2.dtype(), DType::Float32);
  EXPECT_TRUE(Near(a2, {M_PI / 4}, {}));
  EXPECT_TRUE(Near(op("hypot", {T({3, kInf}), T({4, kNan})}), {5, kInf}, {2}));
  EXPECT_TRUE(Near(op("copysign", {T({1, 2, 3}), T({-0.0, 0.0, -kNan})}), {-1, 2, -3}, {3}));
  Tensor c = op("copysign", {I64({3}), py(-1.0)});
  EXPECT_EQ(c.dtype(), DType::Float32);
  EXPECT_TRUE(Near(c, {-3}, {}));
  EXPECT_TRUE(Near(op("xlogy", {T({0, 0, 2, 1}), T({0, kNan, M_E, -1})}), {0, kNan, 2, kNan}, {4}));
  EXPECT_EQ(op("xlogy", {I64({1}), I64({1})}).dtype(), DType::Float32);
  EXPECT_TRUE(Near(op("logaddexp", {T({0, kInf, -kInf, 100}), T({0, kInf, -kInf, 100})}),
                   {std::log(2.0), kInf, -kInf, 100 + std::log(2.0)}, {4}));
  EXPECT_TRUE(Near(op("logaddexp2", {T({1, 3}), T({1, 0})}), {2, std::log2(9.0)}, {2}));
  EXPECT_KILN_ERROR(op("hypot", {I64({3}), I64({4})}), "\"hypot_cpu\" not implemented for 'Long'");
  EXPECT_KILN_ERROR(op("logaddexp", {I64({3}), I64({4})}), "\"logaddexp_cpu\" not implemented for 'Long'");
}

TEST(FloatBinary, Fmod) {
  EXPECT_TRUE(Near(op("fmod", {T({-7.5, 7.5, 5, 1}), T({2, -2, 0, kInf})}), {-1.5, 1.5, kNan, 1}, {4}));
  Tensor i = op("fmod", {I64({-7, 7, -7}), I64({2, -2, 3})});
  EXPECT_EQ(i.dtype(), DType::Int64);
  EXPECT_TRUE(Near(i, {-1, 1, -1}, {3}));
  EXPECT_EQ(op("fmod", {T({-2147483648.0}, {1}, DType::Int32), py_int(-1)}).item_int(), 0);
  EXPECT_KILN_ERROR(op("fmod", {I64({1}), py_int(0)}), "ZeroDivisionError");
  EXPECT_KILN_ERROR(op("fmod", {B({1}), B({1})}), "\"float_fmod_cpu\" not implemented for 'Bool'");
}

TEST(FloatBinary, Heaviside) {
  EXPECT_TRUE(Near(op("heaviside", {T({-1, 0, 2, kNan}), T({0.5, 0.5, 0.5, 0.5})}), {0, 0.5, 1, 0}, {4}));
  EXPECT_TRUE(Near(op("heaviside", {I64({-3, 0, 4}), I64({7})}), {0, 7, 1}, {3}));
  EXPECT_KILN_ERROR(op("heaviside", {T({1}), I64({1})}), "heaviside is not yet implemented for tensors with different dtypes.");
}

TEST(FloatBinary, FloatPower) {
  Tensor p = op("float_power", {I64({2, 3}), int64_t(2)});
  EXPECT_EQ(p.dtype(), DType::Float64);
  EXPECT_TRUE(Near(p, {4, 9}, {2}));
  EXPECT_TRUE(Near(op("float_power", {T({4}), T({0.5})}), {2}, {}));
  Tensor s = T({3});
  EXPECT_KILN_ERROR(op("float_power_", {s, 2.0}),
                    "the base given to float_power_ has dtype Float but the operation's result requires dtype Double");
}

TEST(Lerp, WeightsAndDtypes) {
  Tensor a = T({0, 10}), b = T({10, 20});
  EXPECT_TRUE(Near(op("lerp.Tensor", {a, b, 0.25}), {2.5, 12.5}, {2}));
  EXPECT_TRUE(Near(op("lerp.Tensor", {a, b, T({0.25, 0.75})}), {2.5, 17.5}, {2}));
  EXPECT_TRUE(Near(op("lerp.Tensor", {a, b, -1.0}), {-10, 0}, {2}));  // |w| >= 0.5 takes the other formula
  EXPECT_TRUE(Near(op("lerp.Scalar", {a, b, 2.0}), {20, 30}, {2}));
  EXPECT_KILN_ERROR(op("lerp.Tensor", {a, T({1, 2}, {2}, DType::Float64), 0.5}), "expected dtype float for `end` but got dtype double");
  EXPECT_KILN_ERROR(op("lerp.Tensor", {a, b, T({0.5, 0.5}, {2}, DType::Float64)}),
                    "expected dtype float for `weight` but got dtype double");
  EXPECT_KILN_ERROR(op("lerp.Tensor", {I64({1}), I64({2}), 0.5}), "\"lerp_kernel_scalar\" not implemented for 'Long'");
  Tensor s = clone(a);
  op("lerp_.Tensor", {s, b, 0.5});
  EXPECT_TRUE(Near(s, {5, 15}, {2}));
}

TEST(Addc, MulAndDiv) {
  Tensor s = T({1, 2}), x = T({2, 3}), y = T({4, 0});
  EXPECT_TRUE(Near(op("addcmul", {s, x, y, 0.5}), {5, 2}, {2}));
  EXPECT_TRUE(Near(op("addcdiv", {s, x, y, 2.0}), {2, kInf}, {2}));
  Tensor i = op("addcmul", {I64({1}), I64({2}), I64({3}), int64_t(2)});
  EXPECT_EQ(i.dtype(), DType::Int64);
  EXPECT_TRUE(Near(i, {13}, {}));
  EXPECT_KILN_ERROR(op("addcdiv", {T({1}), I64({1}), I64({2}), 1.0}), "Integer division with addcdiv is no longer supported");
  EXPECT_KILN_ERROR(op("addcmul", {B({1}), B({1}), B({1}), true}), "\"addcmul_cpu_out\" not implemented for 'Bool'");
  Tensor t = clone(s);
  op("addcmul_", {t, x, x, 1.0});
  EXPECT_TRUE(Near(t, {5, 11}, {2}));
}

// ---- aliases and in-place forms --------------------------------------------------------

TEST(Aliases, SameResultsAsTheirOps) {
  Tensor x = T({-1.5, 2}), y = T({2, 4});
  EXPECT_TRUE(Near(op("absolute", {x}), {1.5, 2}, {2}));
  EXPECT_TRUE(Near(op("negative", {x}), {1.5, -2}, {2}));
  EXPECT_TRUE(Near(op("sgn", {x}), {-1, 1}, {2}));
  EXPECT_TRUE(Near(op("multiply", {x, y}), {-3, 8}, {2}));
  EXPECT_TRUE(Near(op("divide", {x, y, "floor"}), {-1, 0}, {2}));
  EXPECT_TRUE(Near(op("subtract", {x, y, 2.0}), {-5.5, -6}, {2}));
  Tensor td = op("true_divide", {I64({3}), I64({2})});
  EXPECT_EQ(td.dtype(), DType::Float32);
  EXPECT_TRUE(Near(td, {1.5}, {}));
  EXPECT_EQ(bools(op("greater", {x, y})), (std::vector<bool>{0, 0}));
  EXPECT_EQ(bools(op("less_equal", {x, py(-1.5)})), (std::vector<bool>{1, 0}));
  EXPECT_EQ(bools(op("not_equal", {x, py(2.0)})), (std::vector<bool>{1, 0}));
  Tensor s = clone(x);
  op("absolute_", {s});
  op("negative_", {s});
  EXPECT_TRUE(Near(s, {-1.5, -2}, {2}));
}

TEST(InPlace, UnaryFormsWriteSelf) {
  Tensor x = T({0.25, 4});
  op("sqrt_", {x});
  op("log2_", {x});
  EXPECT_TRUE(Near(x, {-1, 1}, {2}));
  op("exp_", {x});
  op("floor_", {x});
  EXPECT_TRUE(Near(x, {0, 2}, {2}));
  Tensor i = I64({1, 2});
  EXPECT_KILN_ERROR(op("exp_", {i}), "result type Float can't be cast to the desired output type Long");
  Tensor p = T({2, 3});
  op("pow_.Scalar", {p, 2.0});
  EXPECT_TRUE(Near(p, {4, 9}, {2}));
}

TEST(InPlace, AutogradThroughInPlaceOps) {
  Tensor leaf = grad_input({3}, -1, 1);
  Tensor y = mul(leaf, 2.0);
  op("sinh_", {y});
  op("atan_", {y});
  sum(y).backward();
  // d/dx atan(sinh(2x)) = 2 / cosh(2x)
  auto x = to_double_vector(leaf.detach());
  auto g = to_double_vector(leaf.grad());
  for (size_t k = 0; k < x.size(); ++k) EXPECT_NEAR(g[k], 2 / std::cosh(2 * x[k]), 1e-9);
  // reciprocal saves its result: squaring it in place then breaks backward, as in PyTorch.
  Tensor z = mul(leaf, 2.0);
  op("reciprocal_", {z});
  op("square_", {z});
  EXPECT_KILN_ERROR(sum(z).backward(), "modified by an inplace operation");
}

// ---- gradcheck samples ---------------------------------------------------------------------
KILN_GRAD_SAMPLE("floor", { return {grad_input({4}, -2, 2)}; });
KILN_GRAD_SAMPLE("ceil", { return {grad_input({4}, -2, 2)}; });
KILN_GRAD_SAMPLE("trunc", { return {grad_input({4}, -2, 2)}; });
KILN_GRAD_SAMPLE("fix", { return {grad_input({4}, -2, 2)}; });
KILN_GRAD_SAMPLE("round", { return {grad_input({4}, -2, 2)}; });
KILN_GRAD_SAMPLE("round.decimals", { return {grad_input({4}, -2, 2), int64_t(1)}; });
KILN_GRAD_SAMPLE("frac", { return {grad_input({4}, -2, 2)}; });
KILN_GRAD_SAMPLE("reciprocal", { return {grad_input({4}, 0.5, 2)}; });
KILN_GRAD_SAMPLE("square", { return {grad_input({2, 3})}; });
KILN_GRAD_SAMPLE("fmax", { return {grad_input({2, 3}), grad_input({3}, -1, 1, 2)}; });
KILN_GRAD_SAMPLE("fmin", { return {grad_input({2, 3}), grad_input({3}, -1, 1, 2)}; });
KILN_GRAD_SAMPLE("positive", { return {grad_input({3})}; });
KILN_GRAD_SAMPLE("rsub", { return {grad_input({3}), grad_input({3}, -1, 1, 2), 0.5}; });
KILN_GRAD_SAMPLE("clamp_min", { return {grad_input({6}), 0.2}; });
KILN_GRAD_SAMPLE("clamp_max", { return {grad_input({6}), 0.2}; });
KILN_GRAD_SAMPLE("clamp_min.Tensor", { return {grad_input({2, 3}), grad_input({3}, -1, 1, 2)}; });
KILN_GRAD_SAMPLE("clamp_max.Tensor", { return {grad_input({2, 3}), grad_input({2, 1}, -1, 1, 3)}; });
KILN_GRAD_SAMPLE("clip", { return {grad_input({2, 3}), -0.5, 0.5}; });
KILN_GRAD_SAMPLE("clip.Tensor", { return {grad_input({2, 3}), grad_input({3}, -1, 0, 2), Value()}; });
KILN_GRAD_SAMPLE("nan_to_num", { return {grad_input({4})}; });
KILN_GRAD_SAMPLE("expm1", { return {grad_input({4}, -2, 2)}; });
KILN_GRAD_SAMPLE("exp2", { return {grad_input({4}, -2, 2)}; });
KILN_GRAD_SAMPLE("log2", { return {grad_input({4}, 0.5, 2)}; });
KILN_GRAD_SAMPLE("log10", { return {grad_input({4}, 0.5, 2)}; });
KILN_GRAD_SAMPLE("tan", { return {grad_input({4}, -1, 1)}; });
KILN_GRAD_SAMPLE("asin", { return {grad_input({4}, -0.8, 0.8)}; });
KILN_GRAD_SAMPLE("acos", { return {grad_input({4}, -0.8, 0.8)}; });
KILN_GRAD_SAMPLE("atan", { return {grad_input({4}, -2, 2)}; });
KILN_GRAD_SAMPLE("sinh", { return {grad_input({4}, -2, 2)}; });
KILN_GRAD_SAMPLE("cosh", { return {grad_input({4}, -2, 2)}; });
KILN_GRAD_SAMPLE("asinh", { return {grad_input({4}, -2, 2)}; });
KILN_GRAD_SAMPLE("acosh", { return {grad_input({4}, 1.5, 3)}; });
KILN_GRAD_SAMPLE("atanh", { return {grad_input({4}, -0.8, 0.8)}; });
KILN_GRAD_SAMPLE("erfc", { return {grad_input({4}, -2, 2)}; });
KILN_GRAD_SAMPLE("erfinv", { return {grad_input({4}, -0.8, 0.8)}; });
KILN_GRAD_SAMPLE("sinc", { return {grad_input({5}, -2, 2)}; });
KILN_GRAD_SAMPLE("lgamma", { return {grad_input({4}, 0.2, 5)}; });
KILN_GRAD_SAMPLE("lgamma", { return {grad_input({3}, -2.8, -2.2, 2)}; });  // reflection side
KILN_GRAD_SAMPLE("digamma", { return {grad_input({4}, 0.2, 12)}; });
KILN_GRAD_SAMPLE("digamma", { return {grad_input({3}, -0.9, -0.1, 2)}; });
KILN_GRAD_SAMPLE("polygamma", { return {int64_t(0), grad_input({4}, 0.3, 4)}; });
KILN_GRAD_SAMPLE("polygamma", { return {int64_t(2), grad_input({4}, 0.3, 4)}; });
KILN_GRAD_SAMPLE("deg2rad", { return {grad_input({3})}; });
KILN_GRAD_SAMPLE("rad2deg", { return {grad_input({3})}; });
KILN_GRAD_SAMPLE("atan2", { return {grad_input({2, 3}), grad_input({3}, 0.5, 2, 2)}; });
KILN_GRAD_SAMPLE("hypot", { return {grad_input({2, 3}), grad_input({3}, 0.5, 2, 2)}; });
KILN_GRAD_SAMPLE("logit", { return {grad_input({2, 3}, 0.1, 0.9)}; });
KILN_GRAD_SAMPLE("logit", { return {grad_input({2, 3}, 0.05, 0.95, 3), 0.3}; });  // some clamped: gradient 0
KILN_GRAD_SAMPLE("logaddexp", { return {grad_input({2, 3}), grad_input({3}, -1, 1, 2)}; });
KILN_GRAD_SAMPLE("logaddexp2", { return {grad_input({2, 3}), grad_input({2, 1}, -1, 1, 2)}; });
KILN_GRAD_SAMPLE("xlogy", { return {grad_input({2, 3}), grad_input({3}, 0.5, 2, 2)}; });
KILN_GRAD_SAMPLE("copysign", { return {grad_input({4}), grad_input({4}, -1, 1, 2)}; });
KILN_GRAD_SAMPLE("fmod", { return {grad_input({4}, -3, 3), grad_input({4}, 0.7, 2, 2)}; });
KILN_GRAD_SAMPLE("float_power", { return {grad_input({4}, 0.5, 2), grad_input({4}, -1, 2, 2)}; });
KILN_GRAD_SAMPLE("lerp.Tensor", { return {grad_input({2, 3}), grad_input({3}, -1, 1, 2), grad_input({2, 3}, 0, 1, 3)}; });
KILN_GRAD_SAMPLE("lerp.Tensor", { return {grad_input({4}), grad_input({4}, -1, 1, 2), 0.7}; });  // wrapped weight
KILN_GRAD_SAMPLE("lerp.Scalar", { return {grad_input({4}), grad_input({4}, -1, 1, 2), 0.3}; });
KILN_GRAD_SAMPLE("addcmul", { return {grad_input({2, 3}), grad_input({3}, -1, 1, 2), grad_input({2, 1}, -1, 1, 3), 0.5}; });
KILN_GRAD_SAMPLE("addcdiv", { return {grad_input({2, 3}), grad_input({3}, -1, 1, 2), grad_input({2, 1}, 0.5, 2, 3), 2.0}; });
KILN_GRAD_SAMPLE("true_divide", { return {grad_input({3}), grad_input({3}, 0.5, 2, 2)}; });
KILN_GRAD_SAMPLE("angle", { return {grad_input({3}, 0.5, 2, 2)}; });
KILN_GRAD_SAMPLE("absolute", { return {grad_input({4})}; });
KILN_GRAD_SAMPLE("negative", { return {grad_input({4})}; });
KILN_GRAD_SAMPLE("sgn", { return {grad_input({4})}; });
KILN_GRAD_SAMPLE("multiply", { return {grad_input({2, 3}), grad_input({3}, -1, 1, 2)}; });
KILN_GRAD_SAMPLE("divide", { return {grad_input({2, 3}), grad_input({3}, 0.5, 2, 2)}; });
KILN_GRAD_SAMPLE("subtract", { return {grad_input({2, 3}), grad_input({3}, -1, 1, 2), 0.5}; });
KILN_GRAD_SAMPLE("arcsin", { return {grad_input({4}, -0.8, 0.8)}; });
KILN_GRAD_SAMPLE("arccos", { return {grad_input({4}, -0.8, 0.8)}; });
KILN_GRAD_SAMPLE("arctan", { return {grad_input({4})}; });
KILN_GRAD_SAMPLE("arcsinh", { return {grad_input({4})}; });
KILN_GRAD_SAMPLE("arccosh", { return {grad_input({4}, 1.5, 3)}; });
KILN_GRAD_SAMPLE("arctanh", { return {grad_input({4}, -0.8, 0.8)}; });
KILN_GRAD_SAMPLE("arctan2", { return {grad_input({4}), grad_input({4}, 0.5, 2, 2)}; });

}  // namespace
}  // namespace kiln

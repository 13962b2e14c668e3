// Pointwise ops: hand-checked values (PyTorch's results), dtype promotion,
// Python-number operands, broadcasting, strided inputs, errors, and the
// float64 samples gradcheck_test.cpp differentiates numerically.
#include <cmath>
#include <limits>

#include "core/autograd.h"
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

// A Python number as the binder passes it: a wrapped 0-dim tensor.
Tensor py(double v) { return scalar_tensor(v, DType::Float64, true); }
Tensor py_int(int64_t v) { return scalar_tensor(double(v), DType::Int64, true); }

// The transpose of a contiguous 2-d tensor, as a strided view.
Tensor transposed(const Tensor& t) {
  return make_view(t, {t.size(1), t.size(0)}, {t.stride(1), t.stride(0)}, t.offset());
}

std::vector<double> grad_of(const Tensor& x) { return to_double_vector(x.grad()); }

// ---- arithmetic -------------------------------------------------------------------

TEST(Add, AlphaAndIntegers) {
  EXPECT_TRUE(Near(add(T({1, 2}), T({10, 20}), 2.0), {21, 42}, {2}));
  Tensor i = add(T({1, 2}, {2}, DType::Int32), T({3}, {}, DType::Int64));
  EXPECT_EQ(i.dtype(), DType::Int32);  // 0-dim tensors don't promote dimensioned ones
}

TEST(Add, IntegerOverflowWraps) {
  Tensor big = T({2147483647}, {1}, DType::Int32);
  Tensor r = add(big, T({1}, {1}, DType::Int32));
  EXPECT_EQ(r.dtype(), DType::Int32);
  EXPECT_EQ(r.item_int(), -2147483648LL);
  EXPECT_EQ(neg(T({-2147483648.0}, {1}, DType::Int32)).item_int(), -2147483648LL);
}

TEST(Div, IntegersPromoteToFloat) {
  Tensor q = div(T({7, -7}, {2}, DType::Int64), T({2}, {}, DType::Int64));
  EXPECT_EQ(q.dtype(), DType::Float32);
  EXPECT_TRUE(Near(q, {3.5, -3.5}, {2}));
}

TEST(Div, RoundingModes) {
  Tensor x = T({-7, 7}, {2}, DType::Int64), y = T({2, 2}, {2}, DType::Int64);
  Tensor fl = invoke("div", {x, y, "floor"});
  EXPECT_EQ(fl.dtype(), DType::Int64);
  EXPECT_TRUE(Near(fl, {-4, 3}, {2}));
  EXPECT_TRUE(Near(invoke("div", {x, y, "trunc"}), {-3, 3}, {2}));
  EXPECT_TRUE(Near(invoke("div", {T({-7.5, 7.5}), T({2, 2}), "floor"}), {-4, 3}, {2}));
  EXPECT_KILN_ERROR(invoke("div", {x, T({0, 1}, {2}, DType::Int64), "floor"}), "ZeroDivisionError");
  EXPECT_KILN_ERROR(invoke("div", {x, y, "round"}), "rounding_mode");
}

TEST(FloorDivide, PythonSignsOnIntegers) {
  Tensor x = T({-7, 7, -7, 7}, {4}, DType::Int64), y = T({2, 2, -2, -2}, {4}, DType::Int64);
  Tensor q = floor_divide(x, y);
  EXPECT_EQ(q.dtype(), DType::Int64);
  EXPECT_TRUE(Near(q, {-4, 3, 3, -4}, {4}));
  // Python int operand; int32 stays int32.
  Tensor q32 = floor_divide(T({-7, 6}, {2}, DType::Int32), py_int(2));
  EXPECT_EQ(q32.dtype(), DType::Int32);
  EXPECT_TRUE(Near(q32, {-4, 3}, {2}));
  // INT_MIN // -1 wraps rather than trapping.
  EXPECT_EQ(floor_divide(T({-2147483648.0}, {1}, DType::Int32), T({-1}, {1}, DType::Int32)).item_int(),
            -2147483648LL);
}

TEST(FloorDivide, FloatsAndPromotion) {
  EXPECT_TRUE(Near(floor_divide(T({-7.5, 7.5, 7.5, -7.5}), T({2, -2, 2, -2})), {-4, -4, 3, 3}, {4}));
  // int tensor // Python float computes in float32.
  Tensor q = floor_divide(T({-7, 7}, {2}, DType::Int64), py(2.5));
  EXPECT_EQ(q.dtype(), DType::Float32);
  EXPECT_TRUE(Near(q, {-3, 2}, {2}));
  // Division by zero follows IEEE for floats; -0.0 // 5 keeps its sign.
  Tensor z = floor_divide(T({1, -1, 0}), T({0, 0, 0}));
  EXPECT_TRUE(Near(z, {kInf, -kInf, kNan}, {3}));
  Tensor negzero = floor_divide(T({-1}), T({5}));
  EXPECT_TRUE(Near(negzero, {-1}, {}));
  EXPECT_TRUE(std::signbit(floor_divide(T({-0.0}), T({5})).item_double()));
}

TEST(FloorDivide, Errors) {
  EXPECT_KILN_ERROR(floor_divide(T({1, 2}, {2}, DType::Int64), T({1, 0}, {2}, DType::Int64)), "ZeroDivisionError");
  try {
    floor_divide(T({1}, {1}, DType::Int64), py_int(0));
    ADD_FAILURE() << "expected ZeroDivisionError";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Runtime);  // PyTorch raises RuntimeError("ZeroDivisionError")
  }
  EXPECT_KILN_ERROR(floor_divide(T({1}, {1}, DType::Bool), T({1}, {1}, DType::Bool)),
                    "\"div_floor_cpu\" not implemented for 'Bool'");
}

TEST(Remainder, PythonSigns) {
  Tensor r = remainder(T({-7, 7, -7, 7}, {4}, DType::Int64), T({2, 2, -2, -2}, {4}, DType::Int64));
  EXPECT_EQ(r.dtype(), DType::Int64);
  EXPECT_TRUE(Near(r, {1, 1, -1, -1}, {4}));
  EXPECT_TRUE(Near(remainder(T({-7.5, 7.5, 5.0, -0.5}), T({2, -2, 2.5, 3})), {0.5, -0.5, 0, 2.5}, {4}));
  EXPECT_TRUE(Near(remainder(T({5.0}), T({0.0})), {kNan}, {}));
  // Python scalars: int keeps int, float promotes.
  Tensor ri = remainder(T({-3, 4}, {2}, DType::Int64), py_int(3));
  EXPECT_EQ(ri.dtype(), DType::Int64);
  EXPECT_TRUE(Near(ri, {0, 1}, {2}));
  Tensor rf = remainder(T({-3, 4}, {2}, DType::Int64), py(2.5));
  EXPECT_EQ(rf.dtype(), DType::Float32);
  EXPECT_TRUE(Near(rf, {2, 1.5}, {2}));
  EXPECT_EQ(remainder(T({-2147483648.0}, {1}, DType::Int32), T({-1}, {1}, DType::Int32)).item_int(), 0);
}

TEST(Remainder, ErrorsAndBroadcast) {
  EXPECT_KILN_ERROR(remainder(T({3}, {1}, DType::Int32), T({0}, {1}, DType::Int32)), "ZeroDivisionError");
  EXPECT_KILN_ERROR(remainder(T({1}, {1}, DType::Bool), T({1}, {1}, DType::Bool)), "remainder_cpu");
  Tensor r = remainder(reshape(arange(-3, 3, 1, DType::Int64), {2, 3}), T({2, -2, 4}, {3}, DType::Int64));
  EXPECT_TRUE(Near(r, {1, 0, 3, 0, -1, 2}, {2, 3}));
  EXPECT_KILN_ERROR(remainder(T({1, 2}), T({1, 2, 3})), "must match the size");
}

// ---- pow -----------------------------------------------------------------------------

TEST(Pow, IntegerPowersStayInteger) {
  Tensor p = pow(T({2, 3, -2, 0}, {4}, DType::Int64), T({3, 2, 3, 0}, {4}, DType::Int64));
  EXPECT_EQ(p.dtype(), DType::Int64);
  EXPECT_TRUE(Near(p, {8, 9, -8, 1}, {4}));
  // Tensor exponents may be negative: 1 / base truncated.
  Tensor n = pow(T({1, -1, -1, 2, 0}, {5}, DType::Int64), T({-2, -3, -2, -1, 2}, {5}, DType::Int64));
  EXPECT_TRUE(Near(n, {1, -1, 1, 0, 0}, {5}));
  // Python int exponent keeps int32.
  Tensor q = invoke("pow", {T({3, -4}, {2}, DType::Int32), 2});
  EXPECT_EQ(q.dtype(), DType::Int32);
  EXPECT_TRUE(Near(q, {9, 16}, {2}));
  // Overflow wraps.
  EXPECT_EQ(pow(T({2}, {1}, DType::Int32), T({31}, {1}, DType::Int32)).item_int(), -2147483648LL);
}

TEST(Pow, NegativeIntegerScalarExponentIsAnError) {
  Tensor x = T({2, 3}, {2}, DType::Int64);
  const char* msg = "Integers to negative integer powers are not allowed.";
  EXPECT_KILN_ERROR(invoke("pow.Tensor_Scalar", {x, -1}), msg);
  EXPECT_KILN_ERROR(invoke("pow", {x, -2}), msg);  // a Python int binds as a wrapped tensor
  EXPECT_KILN_ERROR(invoke("pow", {T({1}, {1}, DType::Bool), -1}), msg);
  // A float exponent is fine: it promotes.
  Tensor f = pow(x, -1.0);
  EXPECT_EQ(f.dtype(), DType::Float32);
  EXPECT_TRUE(Near(f, {0.5, 1.0 / 3}, {2}));
}

TEST(Pow, ScalarExponentsAndPromotion) {
  Tensor i = T({4, 9}, {2}, DType::Int64);
  Tensor s = pow(i, 0.5);
  EXPECT_EQ(s.dtype(), DType::Float32);
  EXPECT_TRUE(Near(s, {2, 3}, {2}));
  Tensor x = T({-2, 0.5, 0, 4});
  EXPECT_TRUE(Near(pow(x, 2.0), {4, 0.25, 0, 16}, {4}));
  EXPECT_TRUE(Near(pow(x, 3.0), {-8, 0.125, 0, 64}, {4}));
  EXPECT_TRUE(Near(pow(x, -1.0), {-0.5, 2, kInf, 0.25}, {4}));
  EXPECT_TRUE(Near(pow(x, -2.0), {0.25, 4, kInf, 1.0 / 16}, {4}));
  EXPECT_TRUE(Near(pow(x, 0.5), {kNan, std::sqrt(0.5), 0, 2}, {4}));
  EXPECT_TRUE(Near(pow(x, -0.5), {kNan, std::sqrt(2.0), kInf, 0.5}, {4}));
  EXPECT_TRUE(Near(pow(x, 1.5), {kNan, std::pow(0.5, 1.5), 0, 8}, {4}));
  EXPECT_TRUE(Near(pow(T({kNan, 0, -3}), 0.0), {1, 1, 1}, {3}));
  EXPECT_TRUE(Near(pow(T({-8}), T({1.0 / 3})), {kNan}, {}));
  EXPECT_TRUE(Near(pow(T({0.0}), T({0.0})), {1}, {}));
  // Integer tensor ** bool exponent stays integer.
  Tensor b = invoke("pow.Tensor_Scalar", {i, true});
  EXPECT_EQ(b.dtype(), DType::Int64);
  EXPECT_TRUE(Near(b, {4, 9}, {2}));
}

TEST(Pow, ScalarBase) {
  Tensor e = T({0, 1, 3, -1}, {4}, DType::Int64);
  Tensor f = pow(2.0, e);  // float base: float32
  EXPECT_EQ(f.dtype(), DType::Float32);
  EXPECT_TRUE(Near(f, {1, 2, 8, 0.5}, {4}));
  Tensor i = invoke("pow.Scalar", {2, e});  // int base: int64, 2 ** -1 truncates to 0 without error
  EXPECT_EQ(i.dtype(), DType::Int64);
  EXPECT_TRUE(Near(i, {1, 2, 8, 0}, {4}));
  Tensor h = pow(3.0, T({2}, {1}, DType::Float16));
  EXPECT_EQ(h.dtype(), DType::Float16);
  EXPECT_TRUE(Near(h, {9}, {1}));
  // Overload resolution by name picks Tensor_Tensor with a wrapped base.
  EXPECT_TRUE(Near(call_op("pow", std::vector<Value>{Value(2.0), Value(e)}, {})[0], {1, 2, 8, 0.5}, {4}));
}

TEST(Pow, MixedDtypesAndBroadcast) {
  Tensor p = pow(T({1, 2, 3}, {3, 1}, DType::Int64), T({0.5, 2}, {2}));
  EXPECT_EQ(p.dtype(), DType::Float32);
  EXPECT_TRUE(Near(p, {1, 1, std::sqrt(2.0), 4, std::sqrt(3.0), 9}, {3, 2}));
  EXPECT_KILN_ERROR(pow(T({1}, {1}, DType::Bool), T({1}, {1}, DType::Bool)), "\"pow\" not implemented for 'Bool'");
}

// ---- unary -----------------------------------------------------------------------------

TEST(UnaryFloat, IntAndBoolPromoteToFloat32) {
  Tensor e = exp(T({0, 1}, {2}, DType::Int64));
  EXPECT_EQ(e.dtype(), DType::Float32);
  EXPECT_TRUE(Near(e, {1, M_E}, {2}));
  Tensor l = log(T({1, 0}, {2}, DType::Bool));
  EXPECT_EQ(l.dtype(), DType::Float32);
  EXPECT_TRUE(Near(l, {0, -kInf}, {2}));
  EXPECT_EQ(sqrt(T({4}, {1}, DType::Int32)).dtype(), DType::Float32);
  EXPECT_EQ(sigmoid(T({0}, {1}, DType::Int64)).dtype(), DType::Float32);
  EXPECT_EQ(tanh(T({1.0}, {1}, DType::Float64)).dtype(), DType::Float64);
}

TEST(UnaryFloat, Values) {
  Tensor x = T({0.5, -1, 2});
  EXPECT_TRUE(Near(exp(x), {std::exp(0.5), std::exp(-1.0), std::exp(2.0)}, {3}));
  EXPECT_TRUE(Near(log(T({1, M_E, -1, 0})), {0, 1, kNan, -kInf}, {4}));
  EXPECT_TRUE(Near(log1p(T({1e-10, 0, -1})), {1e-10, 0, -kInf}, {3}, 1e-6));
  EXPECT_NEAR(log1p(T({1e-10}, {1}, DType::Float64)).item_double(), 1e-10, 1e-20);
  EXPECT_TRUE(Near(sqrt(T({4, 2, -1})), {2, std::sqrt(2.0), kNan}, {3}));
  EXPECT_TRUE(Near(rsqrt(T({4, 0, 0.25})), {0.5, kInf, 2}, {3}));
  EXPECT_TRUE(Near(sin(x), {0.479425538604203, -0.8414709848078965, 0.9092974268256817}, {3}));
  EXPECT_TRUE(Near(cos(x), {0.8775825618903728, 0.5403023058681398, -0.4161468365471424}, {3}));
  EXPECT_TRUE(Near(tanh(x), {0.46211715726000974, -0.7615941559557649, 0.9640275800758169}, {3}));
  EXPECT_TRUE(Near(sigmoid(T({0, 1, -100, 100})), {0.5, 0.7310585786300049, 0, 1}, {4}));
  EXPECT_TRUE(Near(erf(T({0, 0.5, -1, 3})), {0, 0.5204998778130465, -0.8427007929497149, 0.9999779095030014}, {4}));
}

TEST(UnaryFloat, HalfTypesComputeInFloat) {
  Tensor h = exp(T({1}, {1}, DType::Float16));
  EXPECT_EQ(h.dtype(), DType::Float16);
  EXPECT_EQ(h.item_double(), 2.71875);  // e rounded once to half
  Tensor b = exp(T({1}, {1}, DType::BFloat16));
  EXPECT_EQ(b.dtype(), DType::BFloat16);
  EXPECT_EQ(b.item_double(), 2.71875);
  Tensor g = gelu(T({1}, {1}, DType::BFloat16));
  EXPECT_EQ(g.dtype(), DType::BFloat16);
  EXPECT_NEAR(g.item_double(), 0.8413447, 4e-3);
  Tensor s = sigmoid(T({2}, {1}, DType::Float16));
  EXPECT_NEAR(s.item_double(), 0.8807970779778823, 1e-3);
}

TEST(UnaryFloat, ZeroDimAndStrided) {
  Tensor z = exp(T({0}));
  EXPECT_EQ(z.dim(), 0);
  EXPECT_EQ(z.item_double(), 1.0);
  Tensor base = T({0, 1, 2, 3, 4, 5}, {2, 3});
  Tensor tr = transposed(base);  // [[0,3],[1,4],[2,5]]
  ASSERT_FALSE(tr.is_contiguous());
  EXPECT_TRUE(Near(sqrt(tr), {0, std::sqrt(3.0), 1, 2, std::sqrt(2.0), std::sqrt(5.0)}, {3, 2}));
  Tensor ex = expand(T({4}, {1}), {2, 2});
  EXPECT_TRUE(Near(rsqrt(ex), {0.5, 0.5, 0.5, 0.5}, {2, 2}));
}

TEST(UnaryKeepDtype, AbsNegSign) {
  Tensor a = abs(T({-3, 2, 0}, {3}, DType::Int64));
  EXPECT_EQ(a.dtype(), DType::Int64);
  EXPECT_TRUE(Near(a, {3, 2, 0}, {3}));
  EXPECT_TRUE(Near(abs(T({-1.5, -0.0, kNan})), {1.5, 0, kNan}, {3}));
  EXPECT_EQ(abs(T({-2147483648.0}, {1}, DType::Int32)).item_int(), -2147483648LL);  // wraps like PyTorch
  Tensor s = sign(T({-2, 0, 3, kNan, -0.0}));
  EXPECT_TRUE(Near(s, {-1, 0, 1, 0, 0}, {5}));
  EXPECT_FALSE(std::signbit(element_as_double(s, 4)));
  Tensor si = sign(T({-5, 0, 7}, {3}, DType::Int32));
  EXPECT_EQ(si.dtype(), DType::Int32);
  EXPECT_TRUE(Near(si, {-1, 0, 1}, {3}));
  Tensor sb = sign(T({1, 0}, {2}, DType::Bool));
  EXPECT_EQ(sb.dtype(), DType::Bool);
  EXPECT_TRUE(Near(sb, {1, 0}, {2}));
  Tensor n = neg(T({1, -2}, {2}, DType::Int64));
  EXPECT_EQ(n.dtype(), DType::Int64);
  EXPECT_TRUE(Near(n, {-1, 2}, {2}));
}

TEST(UnaryKeepDtype, Errors) {
  EXPECT_KILN_ERROR(abs(T({1}, {1}, DType::Bool)), "\"abs_cpu\" not implemented for 'Bool'");
  EXPECT_KILN_ERROR(neg(T({1}, {1}, DType::Bool)), "Negation, the `-` operator, on a bool tensor is not supported.");
  EXPECT_KILN_ERROR(relu(T({1}, {1}, DType::Bool)), "Boolean inputs not supported for relu");
}

TEST(Relu, ValuesDtypesInPlace) {
  EXPECT_TRUE(Near(relu(T({-1, 0, 2.5, kNan})), {0, 0, 2.5, kNan}, {4}));
  Tensor ri = relu(T({-1, 3}, {2}, DType::Int64));
  EXPECT_EQ(ri.dtype(), DType::Int64);
  EXPECT_TRUE(Near(ri, {0, 3}, {2}));
  Tensor base = T({-1, 2, -3, 4, -5, 6}, {2, 3});
  Tensor tr = transposed(base);
  relu_(tr);
  EXPECT_TRUE(Near(base, {0, 2, 0, 4, 0, 6}, {2, 3}));
  EXPECT_EQ(base.version(), 1u);
}

TEST(Gelu, KnownValues) {
  Tensor x = T({1, -1, 0, 3});
  EXPECT_TRUE(Near(gelu(x), {0.8413447, -0.1586553, 0, 2.9959502}, {4}, 1e-6));
  EXPECT_TRUE(Near(gelu(x, "tanh"), {0.8411920, -0.1588080, 0, 2.9963627}, {4}, 1e-6));
  EXPECT_KILN_ERROR(gelu(x, "erf"), "approximate argument must be either none or tanh.");
  // Integer inputs are an error in PyTorch's gelu and silu (no float promotion).
  EXPECT_KILN_ERROR(gelu(T({1}, {1}, DType::Int64)), "\"GeluKernelImpl\" not implemented for 'Long'");
  EXPECT_KILN_ERROR(silu(T({1}, {1}, DType::Int64)), "not implemented for 'Long'");
}

TEST(Gelu, BackwardMatchesFiniteDifferences) {
  Tensor x = T({-2.5, -1, -0.3, 0, 0.7, 1, 4}, {7}, DType::Float64);
  Tensor ones_g = ones_like(x);
  for (const char* approx : {"none", "tanh"}) {
    SCOPED_TRACE(approx);
    Tensor got = gelu_backward(ones_g, x, approx);
    double h = 1e-6;
    Tensor fd = div(sub(gelu(add(x, h), approx), gelu(add(x, -h), approx)), full_like(x, 2 * h));
    EXPECT_TRUE(Near(got, to_double_vector(fd), {7}, 1e-6));
  }
  // d/dx gelu(1) = Phi(1) + phi(1).
  EXPECT_NEAR(gelu_backward(T({1.0}), T({1.0})).item_double(), 0.8413447 + 0.2419707, 1e-6);
  EXPECT_NEAR(gelu_backward(T({2.0}), T({0.0}), "tanh").item_double(), 1.0, 1e-6);
}

TEST(Silu, Values) {
  EXPECT_TRUE(Near(silu(T({1, -1, 0})), {0.7310585786, -0.2689414214, 0}, {3}));
  EXPECT_EQ(silu(T({1}, {1}, DType::Float16)).dtype(), DType::Float16);
}

TEST(LogicalNot, AnyDtypeToBool) {
  Tensor r = logical_not(T({0, 1.5, kNan, -0.0}));
  EXPECT_EQ(r.dtype(), DType::Bool);
  EXPECT_TRUE(Near(r, {1, 0, 0, 1}, {4}));
  EXPECT_TRUE(Near(logical_not(T({0, 3}, {2}, DType::Int64)), {1, 0}, {2}));
  EXPECT_TRUE(Near(logical_not(T({1, 0}, {2}, DType::Bool)), {0, 1}, {2}));
}

// ---- selection -----------------------------------------------------------------------------

TEST(MaximumMinimum, PromotionNanBroadcast) {
  Tensor m = maximum(T({1, 5}, {2}, DType::Int64), T({2.5, 3}));
  EXPECT_EQ(m.dtype(), DType::Float32);
  EXPECT_TRUE(Near(m, {2.5, 5}, {2}));
  EXPECT_TRUE(Near(minimum(T({1, kNan, 3}), T({kNan, 2, 1})), {kNan, kNan, 1}, {3}));
  EXPECT_TRUE(Near(maximum(T({1, kNan, 3}), T({kNan, 2, 1})), {kNan, kNan, 3}, {3}));
  Tensor b = minimum(T({0, 1, 2}, {3, 1}), T({1, 0}, {2}));
  EXPECT_TRUE(Near(b, {0, 0, 1, 0, 1, 0}, {3, 2}));
  Tensor bo = maximum(T({1, 0, 0}, {3}, DType::Bool), T({0, 0, 1}, {3}, DType::Bool));
  EXPECT_EQ(bo.dtype(), DType::Bool);
  EXPECT_TRUE(Near(bo, {1, 0, 1}, {3}));
  Tensor i32 = minimum(T({5, -5}, {2}, DType::Int32), T({0}, {}, DType::Int64));  // 0-dim int64 doesn't promote
  EXPECT_EQ(i32.dtype(), DType::Int32);
  EXPECT_TRUE(Near(i32, {0, -5}, {2}));
}

TEST(MaximumMinimum, TiesSplitTheGradient) {
  Tensor x = T({1, 2, 3}, {3}, DType::Float64).requires_grad_();
  Tensor y = T({2, 2, 2}, {3}, DType::Float64).requires_grad_();
  sum(maximum(x, y)).backward();
  EXPECT_EQ(grad_of(x), (std::vector<double>{0, 0.5, 1}));
  EXPECT_EQ(grad_of(y), (std::vector<double>{1, 0.5, 0}));
}

TEST(Clamp, ScalarBounds) {
  Tensor x = T({-2, 0.5, 3, kNan});
  EXPECT_TRUE(Near(clamp(x, -1.0, 1.0), {-1, 0.5, 1, kNan}, {4}));
  EXPECT_TRUE(Near(clamp(x, 0.0, std::nullopt), {0, 0.5, 3, kNan}, {4}));
  EXPECT_TRUE(Near(clamp(x, std::nullopt, 0.0), {-2, 0, 0, kNan}, {4}));
  EXPECT_TRUE(Near(clamp(x, 2.0, 1.0), {1, 1, 1, kNan}, {4}));  // min > max: max wins
  EXPECT_TRUE(Near(clamp(T({-kInf, kInf}), 0.0, std::nullopt), {0, kInf}, {2}));
  EXPECT_TRUE(Near(clamp(T({1, 2}), kNan, 1.0), {kNan, kNan}, {2}));  // a nan bound (with both given) is nan
  EXPECT_KILN_ERROR(clamp(x, std::nullopt, std::nullopt), "At least one of 'min' or 'max' must not be None");
}

TEST(Clamp, IntegerPromotion) {
  Tensor i = T({-5, 2, 9}, {3}, DType::Int64);
  Tensor ki = invoke("clamp", {i, 0, 5});
  EXPECT_EQ(ki.dtype(), DType::Int64);
  EXPECT_TRUE(Near(ki, {0, 2, 5}, {3}));
  Tensor kf = clamp(i, 0.5, std::nullopt);  // a float bound promotes to float32
  EXPECT_EQ(kf.dtype(), DType::Float32);
  EXPECT_TRUE(Near(kf, {0.5, 2, 9}, {3}));
  Tensor h = clamp(T({-5, 5}, {2}, DType::Float16), -1.0, 1.0);
  EXPECT_EQ(h.dtype(), DType::Float16);
  EXPECT_TRUE(Near(h, {-1, 1}, {2}));
  // Bool self promotes with int bounds to int64, as PyTorch's clamp.
  Tensor b = invoke("clamp", {T({1, 0}, {2}, DType::Bool), 0, 1});
  EXPECT_EQ(b.dtype(), DType::Int64);
  EXPECT_TRUE(Near(b, {1, 0}, {2}));
  EXPECT_KILN_ERROR(invoke("clamp", {T({1}, {1}, DType::Bool), true, true}),
                    "\"clamp_scalar_cpu\" not implemented for 'Bool'");
}

TEST(Clamp, InPlace) {
  Tensor x = T({-2, 0.5, 3});
  clamp_(x, -1.0, 1.0);
  EXPECT_TRUE(Near(x, {-1, 0.5, 1}, {3}));
  Tensor i = T({-2, 3}, {2}, DType::Int64);
  EXPECT_KILN_ERROR(clamp_(i, 0.5, std::nullopt), "result type Float can't be cast to the desired output type Long");
  Tensor base = T({-3, 1, 3, -1}, {2, 2});
  Tensor tr = transposed(base);
  clamp_(tr, -2.0, 2.0);
  EXPECT_TRUE(Near(base, {-2, 1, 2, -1}, {2, 2}));
}

TEST(Clamp, TensorBounds) {
  Tensor x = T({-2, 0.5, 3, 1}, {2, 2});
  Tensor lo = T({-1, 1}, {2}), hi = T({0}, {1});
  Tensor both = clamp(x, lo, T({0, 2}, {2}));
  EXPECT_TRUE(Near(both, {-1, 1, 0, 1}, {2, 2}));
  EXPECT_TRUE(Near(clamp(x, lo, Tensor()), {-1, 1, 3, 1}, {2, 2}));
  EXPECT_TRUE(Near(clamp(x, Tensor(), hi), {-2, 0, 0, 0}, {2, 2}));
  EXPECT_TRUE(Near(clamp(T({1, 2}), T({0, kNan}), T({3, 3})), {1, kNan}, {2}));
  Tensor bc = clamp(T({5}, {1}, DType::Int64), T({0, 1, 2}, {3, 1}, DType::Int64), Tensor());
  EXPECT_EQ(bc.dtype(), DType::Int64);
  EXPECT_EQ(bc.sizes(), (Shape{3, 1}));
  Tensor promoted = clamp(T({-3, 3}, {2}, DType::Int64), T({-1.5}, {1}), Tensor());
  EXPECT_EQ(promoted.dtype(), DType::Float32);
  EXPECT_TRUE(Near(promoted, {-1.5, 3}, {2}));
  EXPECT_KILN_ERROR(clamp(x, Tensor(), Tensor()), "At least one of 'min' or 'max' must not be None");
  // By base name a tensor bound binds clamp.Tensor, a number either overload.
  EXPECT_TRUE(Near(call_op("clamp", std::vector<Value>{Value(x), Value(lo)}, {})[0], {-1, 1, 3, 1}, {2, 2}));
  EXPECT_TRUE(Near(call_op("clamp", std::vector<Value>{Value(x)}, {{"max", Value(0.0)}})[0], {-2, 0, 0, 0}, {2, 2}));
}

TEST(Clamp, Gradients) {
  Tensor x = T({-2, -1, 0.5, 1, 3}, {5}, DType::Float64).requires_grad_();
  sum(clamp(x, -1.0, 1.0)).backward();
  EXPECT_EQ(grad_of(x), (std::vector<double>{0, 1, 1, 1, 0}));  // bounds included
  Tensor y = T({-2, 0.5, 3}, {3}, DType::Float64).requires_grad_();
  Tensor lo = T({-1, -1, -1}, {3}, DType::Float64).requires_grad_();
  Tensor hi = T({1, 1, 1}, {3}, DType::Float64).requires_grad_();
  sum(clamp(y, lo, hi)).backward();
  EXPECT_EQ(grad_of(y), (std::vector<double>{0, 1, 0}));
  EXPECT_EQ(grad_of(lo), (std::vector<double>{1, 0, 0}));
  EXPECT_EQ(grad_of(hi), (std::vector<double>{0, 0, 1}));
}

TEST(Where, ValuesPromotionScalars) {
  Tensor c = T({1, 0, 1}, {3}, DType::Bool);
  EXPECT_TRUE(Near(where(c, T({1, 2, 3}), T({-1, -2, -3})), {1, -2, 3}, {3}));
  Tensor w = where(c, T({1, 2, 3}, {3}, DType::Int64), py(2.5));
  EXPECT_EQ(w.dtype(), DType::Float32);
  EXPECT_TRUE(Near(w, {1, 2.5, 3}, {3}));
  Tensor wi = where(c, T({1, 2, 3}, {3}, DType::Int32), py_int(0));
  EXPECT_EQ(wi.dtype(), DType::Int32);
  EXPECT_TRUE(Near(wi, {1, 0, 3}, {3}));
  Tensor both = where(c, py(1.0), py(0.0));  // two Python floats: default float32
  EXPECT_EQ(both.dtype(), DType::Float32);
  EXPECT_TRUE(Near(both, {1, 0, 1}, {3}));
  Tensor h = where(c, T({1, 2, 3}, {3}, DType::Float16), py(0.0));
  EXPECT_EQ(h.dtype(), DType::Float16);
  Tensor bc = where(T({1, 0}, {2, 1}, DType::Bool), T({1, 2, 3}), T({0}, {}));
  EXPECT_TRUE(Near(bc, {1, 2, 3, 0, 0, 0}, {2, 3}));
  Tensor tr = where(transposed(T({1, 0, 0, 1}, {2, 2}, DType::Bool)), T({1, 2, 3, 4}, {2, 2}), py(-1.0));
  EXPECT_TRUE(Near(tr, {1, -1, -1, 4}, {2, 2}));
}

TEST(Where, Errors) {
  EXPECT_KILN_ERROR(where(T({1, 0}), T({1, 2}), T({3, 4})),
                    "where expected condition to be a boolean tensor, but got a tensor with dtype Float");
  EXPECT_KILN_ERROR(where(T({1, 0}, {2}, DType::Int64), T({1, 2}), T({3, 4})), "but got a tensor with dtype Long");
  EXPECT_KILN_ERROR(where(T({1, 0}, {2}, DType::Bool), T({1, 2, 3}), T({3, 4})), "must match the size");
}

TEST(Where, Gradient) {
  Tensor x = T({1, 2, 3}, {3}, DType::Float64).requires_grad_();
  Tensor y = T({4}, {1}, DType::Float64).requires_grad_();
  sum(where(T({1, 0, 1}, {3}, DType::Bool), x, y)).backward();
  EXPECT_EQ(grad_of(x), (std::vector<double>{1, 0, 1}));
  EXPECT_EQ(grad_of(y), (std::vector<double>{1}));
}

// ---- comparisons -----------------------------------------------------------------------------

TEST(Compare, BoolOutputPromotedCompute) {
  Tensor x = T({1, 2, 3}, {3}, DType::Int64);
  Tensor r = lt(x, py(2.5));  // compared in float32
  EXPECT_EQ(r.dtype(), DType::Bool);
  EXPECT_TRUE(Near(r, {1, 1, 0}, {3}));
  EXPECT_TRUE(Near(eq(x, py_int(2)), {0, 1, 0}, {3}));
  EXPECT_TRUE(Near(ne(x, T({1, 0, 3})), {0, 1, 0}, {3}));
  EXPECT_TRUE(Near(le(x, T({2}, {}, DType::Int32)), {1, 1, 0}, {3}));
  EXPECT_TRUE(Near(gt(T({0.1}, {1}, DType::Float16), T({0.1}, {1}, DType::Float64)), {0}, {1}));
  EXPECT_TRUE(Near(ge(T({1, 2}, {2, 1}), T({1, 2, 3})), {1, 0, 0, 1, 1, 0}, {2, 3}));
  EXPECT_TRUE(Near(eq(T({kNan, 1}), T({kNan, 1})), {0, 1}, {2}));
  EXPECT_TRUE(Near(ne(T({kNan}), T({kNan})), {1}, {}));
  EXPECT_TRUE(Near(eq(T({1, 0}, {2}, DType::Bool), py_int(1)), {1, 0}, {2}));
  // float16 vs a Python float compares in float16: 0.1 rounds the same way.
  EXPECT_TRUE(eq(T({0.1}, {1}, DType::Float16), py(0.1)).item_bool());
  Tensor tr = gt(transposed(T({1, 2, 3, 4}, {2, 2})), py(1.5));
  EXPECT_TRUE(Near(tr, {0, 1, 1, 1}, {2, 2}));
  EXPECT_TRUE(Near(lt(T({3}), T({0, 5}, {2}, DType::Int64)), {0, 1}, {2}));
}

TEST(Compare, NotDifferentiable) {
  Tensor x = T({1, 2}, {2}, DType::Float64).requires_grad_();
  Tensor r = gt(x, py(1.5));
  EXPECT_FALSE(r.requires_grad());
  EXPECT_FALSE(floor_divide(x, py(2.0)).requires_grad());
  EXPECT_EQ(op_table().get("eq").grad, nullptr);
  EXPECT_EQ(op_table().get("logical_not").grad, nullptr);
}

// ---- autograd spot checks --------------------------------------------------------------------

TEST(PointwiseGrad, ReluAndPowEdges) {
  Tensor x = T({-1, 0, 2}, {3}, DType::Float64).requires_grad_();
  sum(relu(x)).backward();
  EXPECT_EQ(grad_of(x), (std::vector<double>{0, 0, 1}));
  Tensor y = T({0, 2}, {2}, DType::Float64).requires_grad_();
  Tensor e = T({0, 3}, {2}, DType::Float64).requires_grad_();
  sum(pow(y, e)).backward();
  EXPECT_EQ(grad_of(y), (std::vector<double>{0, 12}));            // x ** 0: derivative 0 even at 0
  EXPECT_TRUE(Near(e.grad(), {0, 8 * std::log(2.0)}, {2}, 1e-12));  // 0 ** e: 0 for e >= 0
  Tensor z = T({0, 1}, {2}, DType::Float64).requires_grad_();
  sum(pow(0.0, z)).backward();
  EXPECT_EQ(grad_of(z), (std::vector<double>{0, 0}));
}

TEST(PointwiseGrad, InPlaceReluSavesItsOutput) {
  Tensor leaf = T({-1, 2}, {2}, DType::Float64).requires_grad_();
  Tensor x = mul(leaf, py(1.0));
  relu_(x);
  sum(mul(x, py(3.0))).backward();
  EXPECT_EQ(grad_of(leaf), (std::vector<double>{0, 3}));
}

// ---- gradient samples ------------------------------------------------------------------------

KILN_GRAD_SAMPLE("add", { return {grad_input({2, 3}), grad_input({3}, -1, 1, 2), 2.0}; });
KILN_GRAD_SAMPLE("sub", { return {grad_input({2, 3}), grad_input({2, 1}, -1, 1, 2), 0.5}; });
KILN_GRAD_SAMPLE("mul", { return {grad_input({2, 3}), grad_input({3}, -1, 1, 2)}; });
KILN_GRAD_SAMPLE("div", { return {grad_input({2, 3}), grad_input({3}, 0.5, 2, 2)}; });
KILN_GRAD_SAMPLE("neg", { return {grad_input({4})}; });
KILN_GRAD_SAMPLE("clone", { return {grad_input({2, 3})}; });
KILN_GRAD_SAMPLE("_to_copy", { return {grad_input({3}), DType::Float64}; });
KILN_GRAD_SAMPLE("copy", { return {grad_input({2, 3}), grad_input({3}, -1, 1, 2)}; });
KILN_GRAD_SAMPLE("fill", { return {grad_input({2}), 1.0}; });
KILN_GRAD_SAMPLE("zero", { return {grad_input({2})}; });

KILN_GRAD_SAMPLE("remainder", { return {grad_input({2, 3}, -3, 3), grad_input({3}, 0.5, 2, 2)}; });
KILN_GRAD_SAMPLE("remainder", { return {grad_input({4}, -3, 3), grad_input({4}, -2, -0.5, 3)}; });
KILN_GRAD_SAMPLE("pow", { return {grad_input({2, 3}, 0.5, 2), grad_input({3}, -1, 2, 2)}; });
KILN_GRAD_SAMPLE("pow", { return {grad_input({4}, -2, 2), 3.0}; });  // wrapped exponent path
KILN_GRAD_SAMPLE("pow.Tensor_Scalar", { return {grad_input({4}, 0.5, 2), 2.5}; });
KILN_GRAD_SAMPLE("pow.Tensor_Scalar", { return {grad_input({4}, -2, 2), 2}; });
KILN_GRAD_SAMPLE("pow.Tensor_Scalar", { return {grad_input({4}, 0.5, 2), -0.5}; });
KILN_GRAD_SAMPLE("pow.Tensor_Scalar", { return {grad_input({4}), 0}; });
KILN_GRAD_SAMPLE("pow.Scalar", { return {2.5, grad_input({2, 2})}; });
KILN_GRAD_SAMPLE("abs", { return {grad_input({6})}; });
KILN_GRAD_SAMPLE("sign", { return {grad_input({4})}; });
KILN_GRAD_SAMPLE("relu", { return {grad_input({6})}; });
KILN_GRAD_SAMPLE("gelu", { return {grad_input({6}, -3, 3), "none"}; });
KILN_GRAD_SAMPLE("gelu", { return {grad_input({6}, -3, 3), "tanh"}; });
// gelu_backward's derivatives are gelu's second derivative (and gelu' for grad_output).
KILN_GRAD_SAMPLE("gelu_backward", { return {grad_input({6}, -1, 1, 2), grad_input({6}, -3, 3), "none"}; });
KILN_GRAD_SAMPLE("gelu_backward", { return {grad_input({6}, -1, 1, 2), grad_input({6}, -3, 3), "tanh"}; });
// tanh_backward(g, y): linear in g, -2 g y in the output y (double backward of tanh).
KILN_GRAD_SAMPLE("tanh_backward", { return {grad_input({2, 3}, -1, 1, 2), grad_input({3}, -0.9, 0.9)}; });
KILN_GRAD_SAMPLE("silu", { return {grad_input({6}, -3, 3)}; });
KILN_GRAD_SAMPLE("exp", { return {grad_input({2, 3})}; });
KILN_GRAD_SAMPLE("log", { return {grad_input({2, 3}, 0.5, 2)}; });
KILN_GRAD_SAMPLE("log1p", { return {grad_input({4}, -0.5, 2)}; });
KILN_GRAD_SAMPLE("sqrt", { return {grad_input({4}, 0.5, 2)}; });
KILN_GRAD_SAMPLE("rsqrt", { return {grad_input({4}, 0.5, 2)}; });
KILN_GRAD_SAMPLE("sin", { return {grad_input({4}, -3, 3)}; });
KILN_GRAD_SAMPLE("cos", { return {grad_input({4}, -3, 3)}; });
KILN_GRAD_SAMPLE("tanh", { return {grad_input({4}, -2, 2)}; });
KILN_GRAD_SAMPLE("sigmoid", { return {grad_input({4}, -3, 3)}; });
KILN_GRAD_SAMPLE("erf", { return {grad_input({4}, -2, 2)}; });
KILN_GRAD_SAMPLE("maximum", { return {grad_input({2, 3}), grad_input({3}, -1, 1, 2)}; });
KILN_GRAD_SAMPLE("minimum", { return {grad_input({2, 3}), grad_input({2, 1}, -1, 1, 2)}; });
KILN_GRAD_SAMPLE("clamp", { return {grad_input({2, 3}), -0.5, 0.5}; });
KILN_GRAD_SAMPLE("clamp", { return {grad_input({4}), Value(), 0.25}; });
KILN_GRAD_SAMPLE("clamp.Tensor", {
  return {grad_input({2, 3}), grad_input({3}, -1, 0, 2), grad_input({2, 1}, 0, 1, 3)};
});
KILN_GRAD_SAMPLE("clamp.Tensor", { return {grad_input({2, 3}), grad_input({3}, -0.5, 0.5, 2), Value()}; });
KILN_GRAD_SAMPLE("clamp.Tensor", { return {grad_input({4}), Value(), grad_input({4}, -0.5, 0.5, 3)}; });
KILN_GRAD_SAMPLE("where.self", {
  return {T({1, 0, 1, 0, 0, 1}, {2, 3}, DType::Bool), grad_input({2, 3}), grad_input({3}, -1, 1, 2)};
});

}  // namespace
}  // namespace kiln

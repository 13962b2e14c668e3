// Tests for reductions (sum, mean, prod, max/min, arg*, var/std, all/any)
// and the normalisations (logsumexp, softmax, log_softmax): hand-checked
// values, dims/keepdim/negative dims, dtypes, non-contiguous inputs, errors,
// overload resolution through call_op, and gradient samples.
#include <cmath>
#include <limits>

#include "core/autograd.h"
#include "core/dispatch.h"
#include "core/ops.h"
#include "core/thread_pool.h"
#include "tests/core/gradcheck.h"
#include "tests/core/test_util.h"

namespace kiln {
namespace {
using testing::grad_input;
using testing::Near;
using testing::T;

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// [[1, 5, 2], [4, 0, 6]] in float32 unless told otherwise.
Tensor M(DType d = DType::Float32) { return T({1, 5, 2, 4, 0, 6}, {2, 3}, d); }

std::vector<Tensor> call(const char* op, std::vector<Value> args, Kwargs kwargs = {}) {
  return call_op(op, args, kwargs);
}

// ---- sum / mean ------------------------------------------------------------------
TEST(Sum, DimsKeepdimAndIntPromotion) {
  Tensor x = reshape(arange(0, 6, 1, DType::Int64), {2, 3});
  EXPECT_EQ(sum(x).dtype(), DType::Int64);
  EXPECT_TRUE(Near(sum(x, Shape{-1}), {3, 12}, {2}));
  EXPECT_TRUE(Near(sum(x, Shape{0}, true), {3, 5, 7}, {1, 3}));
  EXPECT_TRUE(Near(sum(x, Shape{0, 1}), {15}, {}));
  EXPECT_TRUE(Near(sum(x, Shape{}), {15}, {}));  // [] reduces every dim
}

TEST(Sum, BoolAndInt32GiveInt64) {
  Tensor b = T({1, 0, 1, 1}, {2, 2}, DType::Bool);
  EXPECT_EQ(sum(b).dtype(), DType::Int64);
  EXPECT_TRUE(Near(sum(b, Shape{1}), {1, 2}, {2}));
  Tensor i = T({-3, 7, 2}, {3}, DType::Int32);
  EXPECT_EQ(sum(i).dtype(), DType::Int64);
  EXPECT_TRUE(Near(sum(i), {6}, {}));
  // dtype= casts the input first (2.7 → 2 as int64).
  EXPECT_TRUE(Near(sum(T({1.5, 2.7}), std::nullopt, false, DType::Int64), {3}, {}));
  Tensor f = sum(i, std::nullopt, false, DType::Float64);
  EXPECT_EQ(f.dtype(), DType::Float64);
  EXPECT_TRUE(Near(f, {6}, {}));
}

TEST(Sum, TransposedAndFloat16) {
  Tensor xt = transpose(M(), 0, 1);  // [[1, 4], [5, 0], [2, 6]]
  EXPECT_TRUE(Near(sum(xt, Shape{1}), {5, 5, 8}, {3}));
  EXPECT_TRUE(Near(sum(xt, Shape{0}), {8, 10}, {2}));
  Tensor h = M(DType::Float16);
  Tensor s = sum(h, Shape{1});
  EXPECT_EQ(s.dtype(), DType::Float16);
  EXPECT_TRUE(Near(s, {8, 10}, {2}));
}

TEST(Sum, OuterDimsAndLargeSlices) {
  // Reducing outer dims while the kept dims are contiguous (the column path).
  Tensor x = reshape(arange(0, 3 * 5 * 6, 1, DType::Float32), {3, 5, 6});
  auto v = to_double_vector(sum(x, Shape{1}));
  ASSERT_EQ(v.size(), 18u);
  for (int64_t a = 0; a < 3; ++a)
    for (int64_t c = 0; c < 6; ++c) EXPECT_EQ(v[size_t(a * 6 + c)], 5 * (30 * a + c) + 60) << a << "," << c;
  Tensor big = reshape(arange(0, 600 * 300, 1, DType::Float32), {600, 300});
  auto cols = to_double_vector(sum(big, Shape{0}));
  auto rows = to_double_vector(sum(big, Shape{1}));
  EXPECT_DOUBLE_EQ(cols[7], 300.0 * 599 * 600 / 2 + 600 * 7);
  EXPECT_EQ(rows[599], double(float(599.0 * 300 * 300 + 299.0 * 300 / 2)));  // float32 output
  EXPECT_DOUBLE_EQ(sum(big, Shape{0, 1}, false, DType::Float64).item_double(), 180000.0 * 179999 / 2);
}

TEST(Sum, FewOutputsSplitTheReduction) {
  // With fewer outputs than threads, the reduced range is split and merged.
  int before = num_threads();
  set_num_threads(4);
  Tensor flat = reshape(arange(0, 600 * 500, 1, DType::Float64), {600, 500});
  EXPECT_EQ(sum(flat).item_double(), 299999.0 * 300000 / 2);
  EXPECT_EQ(sum(transpose(flat, 0, 1)).item_double(), 299999.0 * 300000 / 2);
  auto cols = to_double_vector(sum(reshape(flat, {75000, 4}), Shape{0}));
  for (int j = 0; j < 4; ++j) EXPECT_EQ(cols[size_t(j)], 4.0 * 74999 * 75000 / 2 + 75000.0 * j);
  Tensor ints = reshape(arange(0, 300000, 1, DType::Int64), {3, 100000});
  EXPECT_EQ(sum(ints).item_double(), 299999.0 * 300000 / 2);
  EXPECT_DOUBLE_EQ(mean(flat, Shape{0, 1}).item_double(), 299999.0 / 2);
  set_num_threads(before);
}

TEST(Sum, EmptyAndZeroDim) {
  EXPECT_TRUE(Near(sum(zeros({0, 3})), {0}, {}));
  EXPECT_TRUE(Near(sum(zeros({0, 3}), Shape{0}), {0, 0, 0}, {3}));
  EXPECT_TRUE(Near(sum(T({4}, {}), Shape{0}), {4}, {}));
  EXPECT_KILN_ERROR(sum(M(), Shape{2}), "Dimension out of range (expected to be in range of [-2, 1], but got 2)");
  EXPECT_KILN_ERROR(sum(M(), Shape{1, -1}), "dim 1 appears multiple times in the list of dims");
}

TEST(Mean, ValuesAndErrors) {
  EXPECT_TRUE(Near(mean(M(), Shape{1}), {8.0 / 3, 10.0 / 3}, {2}));
  EXPECT_TRUE(Near(mean(transpose(M(), 0, 1), Shape{0}, true), {8.0 / 3, 10.0 / 3}, {1, 2}));
  Tensor m = mean(M(DType::Int64), std::nullopt, false, DType::Float32);
  EXPECT_EQ(m.dtype(), DType::Float32);
  EXPECT_TRUE(Near(m, {3}, {}));
  EXPECT_KILN_ERROR(mean(M(DType::Int64)), "mean(): could not infer output dtype. Input dtype must be either a "
                                            "floating point or complex dtype. Got: Long");
  EXPECT_TRUE(std::isnan(mean(zeros({0})).item_double()));
}

// ---- prod ---------------------------------------------------------------------------
TEST(Prod, FullAndDim) {
  Tensor x = T({1, 2, 3, 4, 5, 6}, {2, 3});
  EXPECT_TRUE(Near(prod(x), {720}, {}));
  EXPECT_TRUE(Near(prod(x, 1), {6, 120}, {2}));
  EXPECT_TRUE(Near(prod(x, -2, true), {4, 10, 18}, {1, 3}));
  EXPECT_TRUE(Near(prod(transpose(x, 0, 1), 0), {6, 120}, {2}));
  Tensor i = prod(T({2, -3, 4}, {3}, DType::Int32));
  EXPECT_EQ(i.dtype(), DType::Int64);
  EXPECT_TRUE(Near(i, {-24}, {}));
  EXPECT_EQ(prod(T({1, 0}, {2}, DType::Bool)).dtype(), DType::Int64);
  EXPECT_TRUE(Near(prod(zeros({0})), {1}, {}));
  EXPECT_TRUE(Near(call("prod", {x}, {{"dtype", DType::Float64}})[0], {720}, {}));
  EXPECT_TRUE(Near(call("prod", {x, 1}, {{"keepdim", true}})[0], {6, 120}, {2, 1}));
}

TEST(Prod, GradientWithZeros) {
  auto grad_of = [](std::vector<double> v) {
    Tensor x = T(v, {int64_t(v.size())}, DType::Float64);
    x.requires_grad_(true);
    prod(x).backward();
    return x.grad();
  };
  EXPECT_TRUE(Near(grad_of({2, 3, 4}), {12, 8, 6}, {3}));
  EXPECT_TRUE(Near(grad_of({2, 0, 3}), {0, 6, 0}, {3}));
  EXPECT_TRUE(Near(grad_of({0, 0, 3}), {0, 0, 0}, {3}));
  Tensor x = T({2, 0, 3, 4, 5, 6}, {2, 3}, DType::Float64);
  x.requires_grad_(true);
  sum(prod(x, 1)).backward();
  EXPECT_TRUE(Near(x.grad(), {0, 6, 0, 30, 24, 20}, {2, 3}));
}

// ---- max / min ------------------------------------------------------------------------
TEST(MaxMin, FullReductionIsZeroDim) {
  EXPECT_TRUE(Near(max(M()), {6}, {}));
  EXPECT_TRUE(Near(min(M()), {0}, {}));
  EXPECT_EQ(max(M(DType::Int32)).dtype(), DType::Int32);
  EXPECT_TRUE(Near(max(T({0, 1, 0}, {3}, DType::Bool)), {1}, {}));
  EXPECT_EQ(min(T({-kInf, 1}, {2})).item_double(), -kInf);
  EXPECT_TRUE(std::isnan(max(T({1, kNaN, 3})).item_double()));
  EXPECT_TRUE(std::isnan(min(T({1, kNaN, 3})).item_double()));
  EXPECT_KILN_ERROR(max(zeros({0, 2})),
                    "max(): Expected reduction dim to be specified for input.numel() == 0. Specify the reduction "
                    "dim with the 'dim' argument.");
  EXPECT_KILN_ERROR(min(zeros({0})), "min(): Expected reduction dim to be specified");
}

TEST(MaxMin, DimReturnsFirstIndexOnTies) {
  Tensor x = T({1, 3, 3, 2, 2, 0}, {2, 3});
  auto [v, i] = max(x, 1);
  EXPECT_TRUE(Near(v, {3, 2}, {2}));
  EXPECT_EQ(i.dtype(), DType::Int64);
  EXPECT_TRUE(Near(i, {1, 0}, {2}));
  auto [mv, mi] = min(x, -1, true);
  EXPECT_TRUE(Near(mv, {1, 0}, {2, 1}));
  EXPECT_TRUE(Near(mi, {0, 2}, {2, 1}));
  auto [cv, ci] = max(transpose(x, 0, 1), 0);  // columns of the transpose are rows of x
  EXPECT_TRUE(Near(cv, {3, 2}, {2}));
  EXPECT_TRUE(Near(ci, {1, 0}, {2}));
  auto [iv, ii] = max(T({5, 9, 9, 1}, {4}, DType::Int64), 0);
  EXPECT_EQ(iv.dtype(), DType::Int64);
  EXPECT_TRUE(Near(ii, {1}, {}));
  auto [nv, ni] = max(T({1, kNaN, 7, kNaN}), 0);
  EXPECT_TRUE(std::isnan(nv.item_double()));
  EXPECT_EQ(ni.item_int(), 1);
  auto [sv, si] = max(T({4}, {}), 0);
  EXPECT_TRUE(Near(sv, {4}, {}));
  EXPECT_TRUE(Near(si, {0}, {}));
  EXPECT_KILN_ERROR(max(zeros({2, 0}), 1), "max(): Expected reduction dim 1 to have non-zero size.");
  EXPECT_KILN_ERROR(max(x, 2), "Dimension out of range (expected to be in range of [-2, 1], but got 2)");
}

TEST(MaxMin, OverloadsThroughCallOp) {
  Tensor x = T({1, 3, 3, 2, 2, 0}, {2, 3});
  EXPECT_TRUE(Near(call("max", {x})[0], {3}, {}));
  auto vi = call("max", {x, 1});
  ASSERT_EQ(vi.size(), 2u);
  EXPECT_TRUE(Near(vi[1], {1, 0}, {2}));
  auto kw = call("min", {x}, {{"dim", 0}, {"keepdim", true}});
  EXPECT_TRUE(Near(kw[0], {1, 2, 0}, {1, 3}));
  EXPECT_TRUE(Near(call("max", {x, T({2, 2, 5})})[0], {2, 3, 5, 2, 2, 5}, {2, 3}));
  EXPECT_TRUE(Near(call("min", {x, T({2, 2, 5})})[0], {1, 2, 3, 2, 2, 0}, {2, 3}));
}

TEST(MaxMin, FullGradientSplitsTies) {
  Tensor x = T({1, 3, 3, 2}, {4}, DType::Float64);
  x.requires_grad_(true);
  max(x).backward();
  EXPECT_TRUE(Near(x.grad(), {0, 0.5, 0.5, 0}, {4}));
  Tensor y = T({1, 3, 3, 2, 2, 0}, {2, 3}, DType::Float64);
  y.requires_grad_(true);
  sum(max(y, 1).first).backward();
  EXPECT_TRUE(Near(y.grad(), {0, 1, 0, 1, 0, 0}, {2, 3}));
}

TEST(AmaxAmin, DimsKeepdimAndTies) {
  Tensor x = M();
  EXPECT_TRUE(Near(amax(x), {6}, {}));
  EXPECT_TRUE(Near(amax(x, {1}), {5, 6}, {2}));
  EXPECT_TRUE(Near(amin(x, {0}, true), {1, 0, 2}, {1, 3}));
  EXPECT_TRUE(Near(amin(x, {-1, 0}), {0}, {}));
  EXPECT_TRUE(Near(amax(transpose(x, 0, 1), {1}), {4, 5, 6}, {3}));
  Tensor b = amax(T({0, 1, 0, 0}, {2, 2}, DType::Bool), {1});
  EXPECT_EQ(b.dtype(), DType::Bool);
  EXPECT_TRUE(Near(b, {1, 0}, {2}));
  EXPECT_TRUE(Near(amax(zeros({2, 0}), {0}), {}, {0}));
  EXPECT_KILN_ERROR(amax(zeros({2, 0}), {1}), "amax(): Expected reduction dim 1 to have non-zero size.");
  EXPECT_KILN_ERROR(amin(zeros({0})), "amin(): Expected reduction dim to be specified for input.numel() == 0.");

  Tensor t = T({1, 3, 3, 2, 2, 0}, {2, 3}, DType::Float64);
  t.requires_grad_(true);
  sum(amax(t, {1})).backward();
  EXPECT_TRUE(Near(t.grad(), {0, 0.5, 0.5, 0.5, 0.5, 0}, {2, 3}));
}

// ---- argmax / argmin ----------------------------------------------------------------------
TEST(ArgMax, FlattensAndPicksFirstTie) {
  Tensor x = T({1, 6, 2, 6, 0, 0}, {2, 3});
  EXPECT_TRUE(Near(argmax(x), {1}, {}));
  EXPECT_EQ(argmax(x).dtype(), DType::Int64);
  EXPECT_TRUE(Near(argmin(x), {4}, {}));
  EXPECT_TRUE(Near(argmax(x, 0), {1, 0, 0}, {3}));
  EXPECT_TRUE(Near(argmax(x, -1, true), {1, 0}, {2, 1}));
  EXPECT_TRUE(Near(argmin(x, 1), {0, 1}, {2}));
  EXPECT_TRUE(Near(argmax(x, std::nullopt, true), {1}, {1, 1}));
  // Flattening follows logical order ([1, 6, 6, 0, 2, 0]), not memory order.
  EXPECT_TRUE(Near(argmax(transpose(x, 0, 1)), {1}, {}));
  EXPECT_TRUE(Near(argmax(T({3, 1, 3}, {3}, DType::Int32)), {0}, {}));
  EXPECT_TRUE(Near(argmax(T({1, kNaN, kNaN})), {1}, {}));
  EXPECT_TRUE(Near(argmin(T({1, kNaN, 0})), {1}, {}));
  EXPECT_KILN_ERROR(argmax(zeros({0})), "argmax(): Expected reduction dim to be specified for input.numel() == 0.");
  EXPECT_KILN_ERROR(argmin(zeros({3, 0}), 1), "argmin(): Expected reduction dim 1 to have non-zero size.");
  EXPECT_KILN_ERROR(argmax(T({1, 0}, {2}, DType::Bool)), "\"argmax_cpu\" not implemented for 'Bool'");
}

// ---- var / std ------------------------------------------------------------------------------
TEST(VarStd, CorrectionAndDims) {
  Tensor x = T({1, 2, 3, 4});
  EXPECT_TRUE(Near(var(x), {1.6666666666666667}, {}));
  EXPECT_TRUE(Near(var(x, std::nullopt, 0), {1.25}, {}));
  EXPECT_TRUE(Near(std(x), {1.2909944487358056}, {}));
  EXPECT_TRUE(Near(std(x, std::nullopt, 0), {1.118033988749895}, {}));
  EXPECT_TRUE(Near(var(M(), Shape{1}), {4.333333333333334, 9.333333333333334}, {2}));
  EXPECT_TRUE(Near(var(M(), Shape{0}, 1, true), {4.5, 12.5, 8}, {1, 3}));
  EXPECT_TRUE(Near(std(transpose(M(), 0, 1), Shape{0}), {2.081665999466133, 3.0550504633038935}, {2}));
  EXPECT_TRUE(Near(var(M(), Shape{-1}, 0), {2.8888888888888893, 6.222222222222222}, {2}));
  Tensor h = var(M(DType::Float16), Shape{1});
  EXPECT_EQ(h.dtype(), DType::Float16);
  EXPECT_TRUE(Near(h, {4.333333333333334, 9.333333333333334}, {2}, 1e-3));
  EXPECT_TRUE(std::isnan(var(T({3})).item_double()));  // one element, correction 1: 0/0
  EXPECT_KILN_ERROR(var(M(DType::Int64)), "std and var only support floating point and complex dtypes");
  EXPECT_KILN_ERROR(std(M(DType::Bool)), "std and var only support floating point and complex dtypes");
}

TEST(VarStd, ThreeOverloadsBind) {
  Tensor x = M();
  EXPECT_TRUE(Near(call("var", {x})[0], {5.6}, {}));
  EXPECT_TRUE(Near(call("var", {x, false})[0], {4.666666666666667}, {}));
  EXPECT_TRUE(Near(call("var", {x, 1})[0], {4.333333333333334, 9.333333333333334}, {2}));
  EXPECT_TRUE(Near(call("var", {x, 1, false, true})[0], {2.8888888888888893, 6.222222222222222}, {2, 1}));
  EXPECT_TRUE(Near(call("var", {x}, {{"dim", 1}, {"unbiased", false}})[0], {2.8888888888888893, 6.222222222222222},
                   {2}));
  EXPECT_TRUE(Near(call("var", {x}, {{"dim", Shape{1}}, {"correction", 0}})[0],
                   {2.8888888888888893, 6.222222222222222}, {2}));
  EXPECT_TRUE(Near(call("var", {x}, {{"correction", 2}, {"keepdim", true}})[0], {7}, {1, 1}));
  EXPECT_TRUE(Near(call("std", {x, Shape{0}, true})[0], {2.1213203435596424, 3.5355339059327378, 2.8284271247461903},
                   {3}));
  EXPECT_TRUE(Near(call("std", {x}, {{"unbiased", false}})[0], {2.160246899469287}, {}));
  EXPECT_TRUE(Near(call("std", {x}, {{"correction", 0}})[0], {2.160246899469287}, {}));
}

// ---- all / any -------------------------------------------------------------------------------
TEST(AllAny, BoolOutputsAnyDtype) {
  Tensor x = M();  // one zero at [1, 1]
  EXPECT_EQ(all(x).dtype(), DType::Bool);
  EXPECT_TRUE(Near(all(x), {0}, {}));
  EXPECT_TRUE(Near(any(x), {1}, {}));
  EXPECT_TRUE(Near(all(x, Shape{1}), {1, 0}, {2}));
  EXPECT_TRUE(Near(all(transpose(x, 0, 1), Shape{0}, true), {1, 0}, {1, 2}));
  EXPECT_TRUE(Near(any(T({0, 0, 0, 1}, {2, 2}, DType::Int64), Shape{-1}), {0, 1}, {2}));
  EXPECT_TRUE(Near(all(T({kNaN, 1})), {1}, {}));
  EXPECT_TRUE(Near(all(zeros({0})), {1}, {}));
  EXPECT_TRUE(Near(any(zeros({0})), {0}, {}));
  EXPECT_TRUE(Near(call("all", {x, 0})[0], {1, 0, 1}, {3}));
  EXPECT_TRUE(Near(call("any", {x}, {{"dim", Shape{0, 1}}, {"keepdim", true}})[0], {1}, {1, 1}));
  EXPECT_EQ(call("any", {T({1, 0}, {2}, DType::Bool)})[0].dtype(), DType::Bool);
}

// ---- logsumexp -------------------------------------------------------------------------------
TEST(LogSumExp, StableWithInfinities) {
  EXPECT_TRUE(Near(logsumexp(T({1, 2, 3}), {0}), {3.40760596444438}, {}));
  EXPECT_TRUE(Near(logsumexp(T({1000, 1000}), {0}), {1000 + std::log(2.0)}, {}));
  EXPECT_TRUE(Near(logsumexp(T({-kInf, 0, -1}), {0}), {0.31326168751822286}, {}));
  EXPECT_EQ(logsumexp(T({-kInf, -kInf}), {0}).item_double(), -kInf);
  EXPECT_EQ(logsumexp(T({kInf, 1}), {0}).item_double(), kInf);
  EXPECT_TRUE(std::isnan(logsumexp(T({kNaN, 1}), {0}).item_double()));
  Tensor r = logsumexp(T({0, 0, 1, 1}, {2, 2}, DType::Int64), {1}, true);
  EXPECT_EQ(r.dtype(), DType::Float32);
  EXPECT_TRUE(Near(r, {std::log(2.0), 1 + std::log(2.0)}, {2, 1}));
  EXPECT_TRUE(Near(logsumexp(transpose(T({0, 1, 0, 1}, {2, 2}), 0, 1), {-1}), {std::log(2.0), 1 + std::log(2.0)},
                   {2}));
  EXPECT_EQ(logsumexp(zeros({0}), {0}).item_double(), -kInf);

  Tensor x = T({-kInf, 0, 0}, {3}, DType::Float64);
  x.requires_grad_(true);
  logsumexp(x, {0}).backward();
  EXPECT_TRUE(Near(x.grad(), {0, 0.5, 0.5}, {3}));
}

// ---- softmax / log_softmax ----------------------------------------------------------------------
TEST(Softmax, ValuesAndLargeInputs) {
  std::vector<double> p = {0.09003057317038046, 0.24472847105479767, 0.6652409557748219};
  EXPECT_TRUE(Near(softmax(T({1, 2, 3}), 0), p, {3}));
  EXPECT_TRUE(Near(softmax(T({1000, 1001}), -1), {0.2689414213699951, 0.7310585786300049}, {2}));
  EXPECT_TRUE(Near(softmax(T({-1000, -1001}), 0), {0.7310585786300049, 0.2689414213699951}, {2}));
  EXPECT_TRUE(Near(softmax(T({0, -kInf}), 0), {1, 0}, {2}));
  // dim 0 of [3, 2]: columns are softmaxed (the strided path), also from a transpose.
  Tensor x = T({1, 5, 2, 5, 3, 5}, {3, 2});
  EXPECT_TRUE(Near(softmax(x, 0), {p[0], 1.0 / 3, p[1], 1.0 / 3, p[2], 1.0 / 3}, {3, 2}));
  EXPECT_TRUE(Near(softmax(transpose(x, 0, 1), 1), {p[0], p[1], p[2], 1.0 / 3, 1.0 / 3, 1.0 / 3}, {2, 3}));
  Tensor h = softmax(T({1, 2, 3}, {3}, DType::Float16), 0);
  EXPECT_EQ(h.dtype(), DType::Float16);
  EXPECT_TRUE(Near(h, p, {3}, 1e-3));
  Tensor d = softmax(T({1, 2, 3}, {3}, DType::Int64), 0, DType::Float64);
  EXPECT_EQ(d.dtype(), DType::Float64);
  EXPECT_TRUE(Near(d, p, {3}, 1e-12));
  EXPECT_TRUE(Near(softmax(T({7}, {}), 0), {1}, {}));
  EXPECT_EQ(softmax(zeros({0, 3}), 1).sizes(), Shape({0, 3}));
  EXPECT_KILN_ERROR(softmax(T({1, 2}, {2}, DType::Int64), 0), "\"softmax_lastdim_kernel_impl\" not implemented for 'Long'");
  EXPECT_KILN_ERROR(softmax(x, 2), "Dimension out of range (expected to be in range of [-2, 1], but got 2)");
}

TEST(LogSoftmax, ValuesAndLargeInputs) {
  std::vector<double> lp = {-2.40760596444438, -1.4076059644443801, -0.4076059644443803};
  EXPECT_TRUE(Near(log_softmax(T({1, 2, 3}), 0), lp, {3}));
  EXPECT_TRUE(Near(log_softmax(T({1001, 1002, 1003}), 0), lp, {3}));
  EXPECT_TRUE(Near(log_softmax(T({1, 2, 3, 1, 2, 3}, {2, 3}), 1), {lp[0], lp[1], lp[2], lp[0], lp[1], lp[2]}, {2, 3}));
  EXPECT_TRUE(Near(log_softmax(transpose(T({1, 2, 3, 1, 2, 3}, {2, 3}), 0, 1), 0),
                   {lp[0], lp[0], lp[1], lp[1], lp[2], lp[2]}, {3, 2}));
  Tensor z = log_softmax(T({0, -kInf}), 0);
  EXPECT_EQ(z.dtype(), DType::Float32);
  EXPECT_TRUE(Near(z, {0}, {2}));  // only element 0 compared: element 1 is -inf
  EXPECT_EQ(element_as_double(z, 1), -kInf);
  EXPECT_KILN_ERROR(log_softmax(T({1, 2, 1, 2}, {2, 2}, DType::Int32), 0),
                    "\"log_softmax_kernel_impl\" not implemented for 'Int'");
  EXPECT_TRUE(Near(call("log_softmax", {T({1, 2, 3})}, {{"dim", 0}, {"dtype", DType::Float64}})[0], lp, {3}));
}

TEST(Softmax, GradientMatchesFormula) {
  Tensor x = T({1, 2, 3}, {3}, DType::Float64);
  x.requires_grad_(true);
  Tensor w = T({1, 0, 0}, {3}, DType::Float64);
  sum(mul(softmax(x, 0), w)).backward();
  // d y0 / d x = y0 (e0 - y)
  std::vector<double> p = {0.09003057317038046, 0.24472847105479767, 0.6652409557748219};
  EXPECT_TRUE(Near(x.grad(), {p[0] * (1 - p[0]), -p[0] * p[1], -p[0] * p[2]}, {3}));
}

// ---- gradient samples ---------------------------------------------------------------------------
KILN_GRAD_SAMPLE("sum", { return {grad_input({2, 3, 4}), Shape{0, 2}, true}; });
KILN_GRAD_SAMPLE("sum", { return {grad_input({2, 3})}; });
KILN_GRAD_SAMPLE("mean", { return {grad_input({2, 3}), Shape{1}}; });
KILN_GRAD_SAMPLE("mean", { return {grad_input({2, 3, 2}), Shape{0, -1}, true}; });
KILN_GRAD_SAMPLE("prod", { return {grad_input({2, 3}, 0.5, 1.5)}; });
KILN_GRAD_SAMPLE("prod", {
  Tensor x = tensor_from({0.5, 0, 1.5, -2}, {2, 2}, DType::Float64);  // one zero
  x.requires_grad_(true);
  return {x};
});
KILN_GRAD_SAMPLE("prod.dim_int", { return {grad_input({2, 3}), 1, true}; });
KILN_GRAD_SAMPLE("prod.dim_int", {
  Tensor x = tensor_from({0.5, 0, 1.5, 0, 0, -2}, {2, 3}, DType::Float64);  // one zero, two zeros
  x.requires_grad_(true);
  return {x, -1};
});
KILN_GRAD_SAMPLE("amax", { return {grad_input({3, 4}), Shape{1}}; });
KILN_GRAD_SAMPLE("amax", { return {grad_input({2, 3, 2}), Shape{0, 2}, true}; });
KILN_GRAD_SAMPLE("amin", { return {grad_input({3, 4}), Shape{0}, true}; });
KILN_GRAD_SAMPLE("max", { return {grad_input({3, 4})}; });
KILN_GRAD_SAMPLE("min", { return {grad_input({3, 4})}; });
KILN_GRAD_SAMPLE("max.dim", { return {grad_input({3, 4}), 1}; });
KILN_GRAD_SAMPLE("max.dim", { return {grad_input({3, 4}), 0, true}; });
KILN_GRAD_SAMPLE("min.dim", { return {grad_input({3, 4}), -1}; });
KILN_GRAD_SAMPLE("max.other", { return {grad_input({2, 3}), grad_input({3}, -1, 1, 2)}; });
KILN_GRAD_SAMPLE("min.other", { return {grad_input({2, 3}), grad_input({2, 3}, -1, 1, 2)}; });
KILN_GRAD_SAMPLE("var", { return {grad_input({3, 4}), true}; });
KILN_GRAD_SAMPLE("var.dim", { return {grad_input({3, 4}), Shape{1}, false, true}; });
KILN_GRAD_SAMPLE("var.correction", { return {grad_input({3, 4}), Shape{0}, 0, false}; });
KILN_GRAD_SAMPLE("var.correction", { return {grad_input({2, 3, 4}), Shape{0, 2}, 2, true}; });
KILN_GRAD_SAMPLE("std", { return {grad_input({3, 4}), false}; });
KILN_GRAD_SAMPLE("std.dim", { return {grad_input({3, 4}), Shape{0}, true, false}; });
KILN_GRAD_SAMPLE("std.correction", { return {grad_input({3, 4}), Shape{1}, Value(), true}; });
KILN_GRAD_SAMPLE("logsumexp", { return {grad_input({3, 4}), Shape{1}}; });
KILN_GRAD_SAMPLE("logsumexp", { return {grad_input({2, 3, 2}), Shape{0, 2}, true}; });
KILN_GRAD_SAMPLE("softmax", { return {grad_input({3, 4}), 1}; });
KILN_GRAD_SAMPLE("softmax", { return {grad_input({3, 4}), 0}; });
KILN_GRAD_SAMPLE("log_softmax", { return {grad_input({3, 4}), -1}; });
KILN_GRAD_SAMPLE("log_softmax", { return {grad_input({2, 3, 2}), 1}; });

}  // namespace
}  // namespace kiln

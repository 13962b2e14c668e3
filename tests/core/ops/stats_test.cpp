// Tests for the statistics (std_mean / var_mean, aminmax, nansum / nanmean,
// quantile / nanquantile, cdist, dist, isclose, histc) and the lane scans
// cummax, cummin, logcumsumexp and mode: values against PyTorch, dtypes,
// negative dims, non-contiguous inputs, PyTorch's errors, gradient samples.
#include <cmath>

#include "core/dispatch.h"
#include "core/ops.h"
#include "tests/core/gradcheck.h"
#include "tests/core/test_util.h"

namespace kiln {
namespace {
using testing::grad_input;
using testing::Near;
using testing::T;

const double kNan = std::nan("");
Tensor op(const char* name, std::vector<Value> args, const Kwargs& kw = {}) { return call_op(name, args, kw)[0]; }
std::vector<Tensor> ops(const char* name, std::vector<Value> args, const Kwargs& kw = {}) {
  return call_op(name, args, kw);
}

TEST(Stats, MomentsAndExtremes) {
  Tensor x = T({1, 5, 2, 8, 3, 3, 9, 0}, {2, 4});
  auto sm = ops("std_mean", {x, Shape{1}});
  EXPECT_TRUE(Near(sm[0], {3.1622777, 3.7749171}, {2}));
  EXPECT_TRUE(Near(sm[1], {4.0, 3.75}, {2}));
  auto vm = ops("var_mean", {x, Shape{0}}, {{"correction", 0}, {"keepdim", true}});
  EXPECT_TRUE(Near(vm[0], {1, 1, 12.25, 16}, {1, 4}));
  EXPECT_TRUE(Near(vm[1], {2, 4, 5.5, 4}, {1, 4}));
  auto all = ops("var_mean", {x});
  EXPECT_TRUE(Near(all[0], {10.410714}, {}));
  EXPECT_TRUE(Near(all[1], {3.875}, {}));
  auto mm = ops("aminmax", {t(x)}, {{"dim", 0}});  // non-contiguous
  EXPECT_TRUE(Near(mm[0], {1, 0}, {2}));
  EXPECT_TRUE(Near(mm[1], {8, 9}, {2}));
  EXPECT_TRUE(Near(ops("aminmax", {x}, {{"keepdim", true}})[1], {9}, {1, 1}));
  EXPECT_KILN_ERROR(ops("std_mean", {T({1, 2}, {2}, DType::Int64)}), "std and var");
}

TEST(Stats, NanReductions) {
  Tensor n = T({1, kNan, 2, kNan, kNan, 4}, {2, 3});
  EXPECT_TRUE(Near(op("nansum", {n}), {7}, {}));
  EXPECT_TRUE(Near(op("nansum", {n, Shape{-1}}), {3, 4}, {2}));
  EXPECT_TRUE(Near(op("nanmean", {n, Shape{1}}), {1.5, 4}, {2}));
  EXPECT_TRUE(Near(op("nanmean", {n, Shape{0}, true}), {1, kNan, 3}, {1, 3}));
  Tensor i = T({1, 2, 3}, {3}, DType::Int32);
  EXPECT_EQ(op("nansum", {i}).dtype(), DType::Int64);
  EXPECT_KILN_ERROR(op("nanmean", {i}), "nanmean(): expected input to have floating point or complex dtype but got Int");
}

TEST(Stats, Scans) {
  EXPECT_TRUE(Near(op("logcumsumexp", {T({-1000, 0, 1000}), 0}), {-1000, 0, 1000}, {3}));  // exact where exp overflows
  EXPECT_TRUE(Near(op("logcumsumexp", {T({0, 1, 2, 3}, {2, 2}), -1}), {0, 1.3132616, 2, 3.3132617}, {2, 2}));
  auto all_neg_inf = to_double_vector(op("logcumsumexp", {T({-INFINITY, -INFINITY, 1}), 0}));
  EXPECT_EQ(all_neg_inf, (std::vector<double>{-INFINITY, -INFINITY, 1}));
  Tensor c = T({1, 3, 2, 3, kNan, 0});
  auto mx = ops("cummax", {c, 0});
  EXPECT_TRUE(Near(mx[0], {1, 3, 3, 3, kNan, kNan}, {6}));
  EXPECT_TRUE(Near(mx[1], {0, 1, 1, 3, 4, 4}, {6}));
  auto mn = ops("cummin", {c, -1});
  EXPECT_TRUE(Near(mn[0], {1, 1, 1, 1, kNan, kNan}, {6}));
  EXPECT_TRUE(Near(mn[1], {0, 0, 0, 0, 4, 4}, {6}));
  auto mi = ops("cummax", {T({1, 0, 0, 2, 3, 1}, {3, 2}, DType::Int64), 0});
  EXPECT_EQ(mi[0].dtype(), DType::Int64);
  EXPECT_TRUE(Near(mi[0], {1, 0, 1, 2, 3, 2}, {3, 2}));
  EXPECT_TRUE(Near(mi[1], {0, 0, 0, 1, 2, 1}, {3, 2}));
  EXPECT_KILN_ERROR(op("logcumsumexp", {T({1, 2}, {2}, DType::Int64), 0}), "not implemented for 'Long'");
}

TEST(Stats, Mode) {
  auto m = ops("mode", {T({1, 2, 2, 3, 3, 5, 4, 4, 5, 1}, {2, 5}, DType::Int64), 1});
  EXPECT_TRUE(Near(m[0], {2, 4}, {2}));
  EXPECT_TRUE(Near(m[1], {2, 2}, {2}));
  auto k = ops("mode", {T({1, 2, 1, 3, 2, 3}, {3, 2}), 0, true});
  EXPECT_TRUE(Near(k[0], {1, 3}, {1, 2}));
  EXPECT_TRUE(Near(k[1], {1, 2}, {1, 2}));
  EXPECT_TRUE(Near(ops("mode", {t(T({1, 2, 1, 3, 2, 3}, {3, 2})), -1})[0], {1, 3}, {2}));  // non-contiguous
  EXPECT_KILN_ERROR(ops("mode", {zeros({2, 0}), 1}), "mode(): Expected reduction dim 1 to have non-zero size.");
}

TEST(Stats, Quantile) {
  Tensor q = T({1, 7, 3, 4, 2, 2, 9, 5}, {2, 4});
  EXPECT_TRUE(Near(op("quantile", {q, 0.4, 1}), {3.2, 2.6}, {2}));
  EXPECT_TRUE(Near(op("quantile", {q, T({0.25, 0.5, 1}), 0, true}),
                   {1.25, 3.25, 4.5, 4.25, 1.5, 4.5, 6, 4.5, 2, 7, 9, 5}, {3, 1, 4}));
  EXPECT_TRUE(Near(op("quantile", {q, 0.5}), {3.5}, {}));
  Tensor qs = T({0.25, 0.5, 0.9});
  auto mode = [&](const char* m) { return op("quantile", {q, qs, -1}, {{"interpolation", m}}); };
  EXPECT_TRUE(Near(mode("lower"), {1, 2, 3, 2, 4, 5}, {3, 2}));
  EXPECT_TRUE(Near(mode("higher"), {3, 2, 4, 5, 7, 9}, {3, 2}));
  EXPECT_TRUE(Near(mode("midpoint"), {2, 2, 3.5, 3.5, 5.5, 7}, {3, 2}));
  EXPECT_TRUE(Near(mode("nearest"), {3, 2, 4, 5, 7, 9}, {3, 2}));
  Tensor n = T({1, kNan, 3, kNan, kNan, kNan}, {2, 3});
  EXPECT_TRUE(Near(op("nanquantile", {n, 0.5, 1}), {2, kNan}, {2}));
  EXPECT_TRUE(Near(op("quantile", {n, 0.5, 1}), {kNan, kNan}, {2}));
  EXPECT_KILN_ERROR(op("quantile", {q, 1.5}), "quantile() q must be in the range [0, 1] but got 1.5");
  EXPECT_KILN_ERROR(op("quantile", {q, T({0.5, 2})}), "quantile() q values must be in the range [0, 1]");
  EXPECT_KILN_ERROR(op("quantile", {q, T({0.5}, {1}, DType::Float64)}),
                    "quantile() q tensor must be same dtype as the input tensor");
  EXPECT_KILN_ERROR(op("quantile", {T({1, 2}, {2}, DType::Int64), 0.5}),
                    "quantile() input tensor must be either float or double dtype");
  EXPECT_KILN_ERROR(op("quantile", {q, 0.5}, {{"interpolation", "cubic"}}),
                    "quantile() interpolation must be one of linear, lower, higher, midpoint or nearest. Got cubic");
}

TEST(Stats, Distances) {
  Tensor a = T({0, 0, 3, 4}, {2, 2}), b = T({0, 0, 1, 1, 6, 8}, {3, 2});
  EXPECT_TRUE(Near(op("cdist", {a, b}), {0, 1.4142135, 10, 5, 3.6055512, 5}, {2, 3}));
  EXPECT_TRUE(Near(op("cdist", {a, b, 1.0}), {0, 2, 14, 7, 5, 7}, {2, 3}));
  EXPECT_TRUE(Near(op("cdist", {a, b, INFINITY}), {0, 1, 8, 4, 3, 4}, {2, 3}));
  EXPECT_EQ(op("cdist", {zeros({4, 2, 3}), zeros({1, 5, 3})}).sizes(), (Shape{4, 2, 5}));  // batch broadcast
  EXPECT_TRUE(Near(op("dist", {T({3, 4}), T({6, 8})}), {5}, {}));
  EXPECT_TRUE(Near(op("dist", {T({3, 4}), T({6, 8}), 1}), {7}, {}));
  EXPECT_KILN_ERROR(op("cdist", {T({1, 2}), b}), "cdist only supports at least 2D tensors, X1 got: 1D");
  EXPECT_KILN_ERROR(op("cdist", {a, zeros({2, 3})}), "X1 and X2 must have the same number of columns. X1: 2 X2: 3");
  EXPECT_KILN_ERROR(op("cdist", {a, b, -1.0}), "cdist only supports non-negative p values");
  EXPECT_KILN_ERROR(op("cdist", {zeros({2, 2}, DType::Int64), b}), "cdist only supports floating-point dtypes, X1 got: Long");
}

TEST(Stats, Isclose) {
  Tensor c = op("isclose", {T({1, kNan, INFINITY, 1e-9, 1}), T({1 + 1e-6, kNan, INFINITY, 0, INFINITY})});
  EXPECT_EQ(c.dtype(), DType::Bool);
  EXPECT_TRUE(Near(c, {1, 0, 1, 1, 0}, {5}));
  EXPECT_TRUE(Near(op("isclose", {T({1, kNan}), T({1, kNan})}, {{"equal_nan", true}}), {1, 1}, {2}));
  Tensor i = T({1, 2}, {2}, DType::Int64);
  EXPECT_TRUE(Near(op("isclose", {i, T({1, 3}, {2}, DType::Int64)}), {1, 0}, {2}));
  EXPECT_TRUE(Near(op("isclose", {T({1, 2}), T({1.5, 2})}, {{"rtol", 0.0}, {"atol", 0.5}}), {1, 1}, {2}));
  EXPECT_KILN_ERROR(op("isclose", {T({1}), i}), "Float did not match Long");
  EXPECT_KILN_ERROR(op("isclose", {T({1}), T({1})}, {{"rtol", -1.0}}),
                    "rtol must be greater than or equal to zero, but got -1");
}

TEST(Stats, Histc) {
  Tensor x = T({1, 2, 1, 4, 2.5});
  EXPECT_TRUE(Near(op("histc", {x, 4, 0, 3}), {0, 2, 1, 1}, {4}));
  EXPECT_TRUE(Near(op("histc", {x, 3}), {2, 2, 1}, {3}));  // the data's range
  EXPECT_TRUE(Near(op("histc", {T({5, 5}), 2}), {0, 2}, {2}));  // [4, 6] around a constant
  EXPECT_EQ(op("histc", {T({1}, {1}, DType::Float64)}).dtype(), DType::Float64);
  EXPECT_KILN_ERROR(op("histc", {x, 2, 3, 1}), "torch.histc: max must be larger than min");
  EXPECT_KILN_ERROR(op("histc", {T({1, 2}, {2}, DType::Int64)}), "not implemented for 'Long'");
}

KILN_GRAD_SAMPLE("std_mean", { return {grad_input({2, 3})}; });
KILN_GRAD_SAMPLE("std_mean.dim", { return {grad_input({2, 3}), Shape{-1}, false, true}; });
KILN_GRAD_SAMPLE("std_mean.correction", { return {grad_input({2, 3}), Shape{0}, 0, false}; });
KILN_GRAD_SAMPLE("var_mean", { return {grad_input({2, 3}), false}; });
KILN_GRAD_SAMPLE("var_mean.dim", { return {grad_input({2, 3}), Shape{1}}; });
KILN_GRAD_SAMPLE("var_mean.correction", { return {grad_input({2, 3}), Value(), 2, true}; });
KILN_GRAD_SAMPLE("aminmax", { return {grad_input({2, 3}), 1, true}; });
KILN_GRAD_SAMPLE("nansum", { return {grad_input({2, 3}), Shape{0}}; });
KILN_GRAD_SAMPLE("nanmean", { return {grad_input({2, 3}), Shape{-1}, true}; });
KILN_GRAD_SAMPLE("quantile.scalar", { return {grad_input({2, 5}), 0.3, 1}; });
KILN_GRAD_SAMPLE("quantile", { return {grad_input({3, 2}), T({0.2, 0.75}, {2}, DType::Float64), 0, true}; });
KILN_GRAD_SAMPLE("nanquantile.scalar", { return {grad_input({4}), 0.6}; });
KILN_GRAD_SAMPLE("nanquantile", { return {grad_input({2, 3}), T({0.5}, {1}, DType::Float64), -1}; });
KILN_GRAD_SAMPLE("cdist", { return {grad_input({2, 3}), grad_input({4, 3}, -1, 1, 2)}; });
KILN_GRAD_SAMPLE("cdist", { return {grad_input({2, 2, 3}), grad_input({3, 3}, -1, 1, 2), 1.0}; });
KILN_GRAD_SAMPLE("dist", { return {grad_input({2, 3}), grad_input({3}, -1, 1, 2)}; });
KILN_GRAD_SAMPLE("dist", { return {grad_input({4}), grad_input({4}, -1, 1, 2), 3}; });
KILN_GRAD_SAMPLE("logcumsumexp", { return {grad_input({2, 4}), -1}; });
KILN_GRAD_SAMPLE("cummax", { return {grad_input({3, 2}), 0}; });
KILN_GRAD_SAMPLE("cummin", { return {grad_input({2, 4}), 1}; });
// distinct values: each lane's mode is its smallest, which a small change keeps
KILN_GRAD_SAMPLE("mode", { return {grad_input({2, 3}), 1}; });

}  // namespace
}  // namespace kiln

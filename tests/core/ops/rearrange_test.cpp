// Tests for the rearranging composites (flip, roll, movedim, ...), the scans
// and order statistics (cumsum, sort, topk, ...) and the matrix helpers and
// norms (diag, einsum, norm, ...): values against PyTorch, negative dims,
// non-contiguous inputs, PyTorch's errors, and gradient samples.
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

Tensor seq(const Shape& shape, DType d = DType::Float32) {
  return reshape(arange(0, double(shape_numel(shape)), 1, d), shape);
}
Tensor op(const char* name, std::vector<Value> args) { return call_op(name, args)[0]; }
std::vector<Tensor> ops2(const char* name, std::vector<Value> args) { return call_op(name, args); }

TEST(Rearrange, FlipRollMovedim) {
  Tensor x = seq({2, 3});
  EXPECT_TRUE(Near(op("flip", {x, Shape{0, -1}}), {5, 4, 3, 2, 1, 0}, {2, 3}));
  EXPECT_TRUE(Near(op("roll", {x, Shape{1}}), {5, 0, 1, 2, 3, 4}, {2, 3}));
  EXPECT_TRUE(Near(op("roll", {x, Shape{1, -1}, Shape{0, 1}}), {4, 5, 3, 1, 2, 0}, {2, 3}));
  EXPECT_TRUE(Near(op("roll", {t(x), Shape{1}, Shape{0}}), {2, 5, 0, 3, 1, 4}, {3, 2}));  // non-contiguous
  Tensor y = seq({2, 3, 4});
  EXPECT_EQ(op("movedim", {y, 0, -1}).sizes(), (Shape{3, 4, 2}));
  EXPECT_EQ(op("movedim", {y, Shape{0, 1}, Shape{2, 0}}).sizes(), (Shape{3, 4, 2}));
  EXPECT_EQ(op("swapaxes", {y, 0, -1}).sizes(), (Shape{4, 3, 2}));
  EXPECT_KILN_ERROR(op("movedim", {x, Shape{0, 0}, Shape{1, 0}}), "movedim: repeated dim in `source` ([0, 0])");
  EXPECT_KILN_ERROR(op("roll", {x, Shape{1, 2}, Shape{0}}), "shifts and dimensions must align. shifts: 2, dims:1");
}

TEST(Rearrange, UnflattenTileRepeatInterleaveStacks) {
  Tensor x = seq({2, 3});
  EXPECT_EQ(op("unflatten", {seq({2, 6}), -1, Shape{3, -1}}).sizes(), (Shape{2, 3, 2}));
  EXPECT_KILN_ERROR(op("unflatten", {x, 1, Shape{2, 2}}),
                    "unflatten: Provided sizes [2, 2] don't multiply up to the size of dim 1 (3) in the input tensor");
  EXPECT_TRUE(Near(op("tile", {T({1, 2}), Shape{2, 2}}), {1, 2, 1, 2, 1, 2, 1, 2}, {2, 4}));
  EXPECT_TRUE(Near(op("repeat_interleave", {x, 2, 1}), {0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5}, {2, 6}));
  EXPECT_TRUE(Near(op("repeat_interleave", {t(x), 2}), {0, 0, 3, 3, 1, 1, 4, 4, 2, 2, 5, 5}, {12}));
  EXPECT_TRUE(Near(op("repeat_interleave", {x, T({1, 0, 2}, {3}, DType::Int64), -1}), {0, 2, 2, 3, 5, 5}, {2, 3}));
  EXPECT_TRUE(Near(op("hstack", {std::vector<Tensor>{T({1, 2}), T({3})}}), {1, 2, 3}, {3}));
  EXPECT_TRUE(Near(op("vstack", {std::vector<Tensor>{T({1, 2}), T({3, 4})}}), {1, 2, 3, 4}, {2, 2}));
  EXPECT_TRUE(Near(op("hstack", {std::vector<Tensor>{x, x}}), {0, 1, 2, 0, 1, 2, 3, 4, 5, 3, 4, 5}, {2, 6}));
}

TEST(Rearrange, DiffCountNonzeroMaskedSelect) {
  Tensor x = T({1, 4, 9, 16, 2, 0}, {2, 3});
  EXPECT_TRUE(Near(op("diff", {x}), {3, 5, -14, -2}, {2, 2}));
  EXPECT_TRUE(Near(op("diff", {x, 1, 0}), {15, -2, -9}, {1, 3}));
  EXPECT_TRUE(Near(op("diff", {T({1, 4, 9, 16}), 2}), {2, 2}, {2}));
  EXPECT_TRUE(Near(op("diff", {T({1, 3}), 1, -1, T({0}, {1}), T({6}, {1})}), {1, 2, 3}, {3}));
  Tensor c = op("count_nonzero", {x});
  EXPECT_EQ(c.dtype(), DType::Int64);
  EXPECT_TRUE(Near(c, {5}, {}));
  EXPECT_TRUE(Near(op("count_nonzero", {x, 0}), {2, 2, 1}, {3}));
  EXPECT_TRUE(Near(op("count_nonzero", {x, Shape{0, 1}}), {5}, {}));
  Tensor m = gt(x, T({3}));
  EXPECT_TRUE(Near(op("masked_select", {x, m}), {4, 9, 16}, {3}));
  EXPECT_TRUE(Near(op("masked_select", {t(x), T({1, 0}, {2}, DType::Bool)}), {1, 4, 9}, {3}));  // broadcast mask
  EXPECT_KILN_ERROR(op("masked_select", {x, x}), "masked_select: expected BoolTensor for mask");
}

TEST(Scan, CumsumCumprodDtypes) {
  Tensor x = seq({2, 3});
  EXPECT_TRUE(Near(op("cumsum", {x, 1}), {0, 1, 3, 3, 7, 12}, {2, 3}));
  EXPECT_TRUE(Near(op("cumsum", {x, -2}), {0, 1, 2, 3, 5, 7}, {2, 3}));
  EXPECT_TRUE(Near(op("cumprod", {add(x, 1.0), 0}), {1, 2, 3, 4, 10, 18}, {2, 3}));
  EXPECT_TRUE(Near(op("cumsum", {t(x), 0}), {0, 3, 1, 7, 3, 12}, {3, 2}));
  EXPECT_EQ(op("cumsum", {seq({3}, DType::Int32), 0}).dtype(), DType::Int64);
  EXPECT_EQ(call_op("cumsum", std::vector<Value>{x, 0}, {{"dtype", DType::Float64}})[0].dtype(), DType::Float64);
  EXPECT_KILN_ERROR(op("cumsum", {x, 2}), "Dimension out of range (expected to be in range of [-2, 1], but got 2)");
}

TEST(Sort, ValuesIndicesTiesAndNaN) {
  double nan = std::nan("");
  Tensor x = T({3, 1, 3, 2, 1, 3, nan, 2});
  auto s = ops2("sort", {x});
  EXPECT_TRUE(Near(s[0], {1, 1, 2, 2, 3, 3, 3, nan}, {8}));
  EXPECT_TRUE(Near(s[1], {1, 4, 3, 7, 0, 2, 5, 6}, {8}));
  auto d = ops2("sort", {x, 0, true});
  EXPECT_TRUE(Near(d[1], {6, 0, 2, 5, 3, 7, 1, 4}, {8}));
  auto st = call_op("sort", std::vector<Value>{x}, {{"stable", true}, {"descending", true}});
  EXPECT_TRUE(Near(st[1], {6, 0, 2, 5, 3, 7, 1, 4}, {8}));
  auto tt = ops2("sort", {t(seq({2, 3})), 0, true});  // non-contiguous
  EXPECT_TRUE(Near(tt[0], {2, 5, 1, 4, 0, 3}, {3, 2}));
  EXPECT_TRUE(Near(op("argsort", {T({2, 0, 1})}), {1, 2, 0}, {3}));
}

TEST(Sort, TopkKthvalueMedian) {
  Tensor x = T({5, 1, 4, 2, 3});
  auto k = ops2("topk", {x, 2});
  EXPECT_TRUE(Near(k[0], {5, 4}, {2}));
  EXPECT_TRUE(Near(k[1], {0, 2}, {2}));
  auto ks = ops2("topk", {x, 2, 0, false});
  EXPECT_TRUE(Near(ks[0], {1, 2}, {2}));
  auto kv = ops2("kthvalue", {x, 2});
  EXPECT_TRUE(Near(kv[0], {2}, {}));
  EXPECT_TRUE(Near(kv[1], {3}, {}));
  EXPECT_TRUE(Near(op("median", {x}), {3}, {}));
  auto md = ops2("median", {T({1, 4, 2, 3, 0, 5}, {2, 3}), 1});
  EXPECT_TRUE(Near(md[0], {2, 3}, {2}));
  EXPECT_TRUE(Near(md[1], {2, 0}, {2}));
  auto mk = ops2("median", {T({1, 4, 2, 3, 0, 5}, {2, 3}), 1, true});
  EXPECT_EQ(mk[0].sizes(), (Shape{2, 1}));
  EXPECT_KILN_ERROR(op("topk", {seq({2, 3}), 4}), "selected index k out of range");
  EXPECT_KILN_ERROR(op("kthvalue", {seq({2, 3}), 4}), "kthvalue(): selected number k out of range for dimension 1");
}

TEST(Sort, SearchsortedBucketize) {
  Tensor seq = T({1, 3, 5, 7, 9});
  Tensor v = T({3, 6, 9}, {3});
  EXPECT_TRUE(Near(op("searchsorted", {seq, v}), {1, 3, 4}, {3}));
  EXPECT_TRUE(Near(call_op("searchsorted", std::vector<Value>{seq, v}, {{"right", true}})[0], {2, 3, 5}, {3}));
  EXPECT_TRUE(Near(call_op("searchsorted", std::vector<Value>{seq, v}, {{"side", "right"}})[0], {2, 3, 5}, {3}));
  Tensor rows = T({1, 3, 5, 7, 9, 2, 4, 6, 8, 10}, {2, 5});
  EXPECT_TRUE(Near(op("searchsorted", {rows, T({3, 6, 9, 3, 6, 9}, {2, 3})}), {1, 3, 4, 1, 2, 4}, {2, 3}));
  Tensor b = call_op("bucketize", std::vector<Value>{v, seq}, {{"out_int32", true}})[0];
  EXPECT_EQ(b.dtype(), DType::Int32);
  EXPECT_TRUE(Near(b, {1, 3, 4}, {3}));
  EXPECT_KILN_ERROR(op("searchsorted", {rows, v}), "first N-1 dimensions of boundaries tensor and input value");
}

TEST(Sort, BincountNonzeroTuple) {
  Tensor x = T({1, 3, 1, 0}, {4}, DType::Int64);
  EXPECT_TRUE(Near(op("bincount", {x}), {1, 2, 0, 1}, {4}));
  EXPECT_TRUE(Near(op("bincount", {x, Value(), 6}), {1, 2, 0, 1, 0, 0}, {6}));
  Tensor w = op("bincount", {x, T({0.5, 1, 2, 3})});
  EXPECT_EQ(w.dtype(), DType::Float32);
  EXPECT_TRUE(Near(w, {3, 2.5, 0, 1}, {4}));
  EXPECT_EQ(op("bincount", {x, T({1, 2, 3, 4}, {4}, DType::Int64)}).dtype(), DType::Float64);
  EXPECT_KILN_ERROR(op("bincount", {T({-1, 2}, {2}, DType::Int64)}),
                    "bincount only supports 1-d non-negative integral inputs.");
  EXPECT_KILN_ERROR(op("bincount", {T({1})}), "\"bincount_cpu\" not implemented for 'Float'");
  auto nz = call_op("nonzero", std::vector<Value>{T({0, 1, 1, 1}, {2, 2})}, {{"as_tuple", true}});
  ASSERT_EQ(nz.size(), 2u);
  EXPECT_TRUE(Near(nz[0], {0, 1, 1}, {3}));
  EXPECT_TRUE(Near(nz[1], {1, 0, 1}, {3}));
}

TEST(Sort, Unique) {
  auto u = call_op("_unique2", std::vector<Value>{t(T({3, 1, 3, 2, 1, 3}, {2, 3})), true, true, true});
  EXPECT_TRUE(Near(u[0], {1, 2, 3}, {3}));
  EXPECT_TRUE(Near(u[1], {2, 1, 0, 0, 2, 2}, {3, 2}));  // non-contiguous input, its shape
  EXPECT_TRUE(Near(u[2], {2, 1, 3}, {3}));
  auto plain = call_op("_unique2", std::vector<Value>{T({2, 2})});
  EXPECT_EQ(plain[1].sizes(), Shape{0});
  EXPECT_EQ(plain[2].sizes(), Shape{0});
}

TEST(Linalg, DiagDiagonalTraceOuterAddmm) {
  Tensor x = seq({2, 3});
  EXPECT_TRUE(Near(op("diag", {T({1, 2}), 1}), {0, 1, 0, 0, 0, 2, 0, 0, 0}, {3, 3}));
  EXPECT_TRUE(Near(op("diag", {T({1, 2}), -1}), {0, 0, 0, 1, 0, 0, 0, 2, 0}, {3, 3}));
  EXPECT_TRUE(Near(op("diag", {x, 1}), {1, 5}, {2}));
  EXPECT_TRUE(Near(op("diagonal", {seq({2, 3, 4}), 1, 1, 2}), {1, 6, 11, 13, 18, 23}, {2, 3}));
  EXPECT_TRUE(Near(op("trace", {seq({3, 3})}), {12}, {}));
  EXPECT_TRUE(Near(op("outer", {T({1, 2}), T({1, 2, 3})}), {1, 2, 3, 2, 4, 6}, {2, 3}));
  Tensor r = call_op("addmm", std::vector<Value>{ones({2, 2}), eye(2), full({2, 2}, 2.0)},
                     {{"beta", 0.5}, {"alpha", 2}})[0];
  EXPECT_TRUE(Near(r, {4.5, 4.5, 4.5, 4.5}, {2, 2}));
  EXPECT_KILN_ERROR(op("diag", {seq({2, 2, 2})}), "diag(): Supports 1D or 2D tensors. Got 3D");
  EXPECT_KILN_ERROR(op("diagonal", {x, 0, 1, -1}), "diagonal dimensions cannot be identical 1, -1");
}

TEST(Linalg, Einsum) {
  Tensor a = seq({2, 2, 3}), b = seq({2, 3, 2});
  EXPECT_TRUE(Near(op("einsum", {"bij,bjk->bik", std::vector<Tensor>{a, b}}),
                   {10, 13, 28, 40, 172, 193, 244, 274}, {2, 2, 2}));
  EXPECT_TRUE(Near(op("einsum", {"ii->i", std::vector<Tensor>{seq({3, 3})}}), {0, 4, 8}, {3}));
  EXPECT_EQ(op("einsum", {"...ij->...ji", std::vector<Tensor>{seq({1, 2, 3})}}).sizes(), (Shape{1, 3, 2}));
  EXPECT_TRUE(Near(op("einsum", {"ji", std::vector<Tensor>{seq({2, 3})}}), {0, 3, 1, 4, 2, 5}, {3, 2}));
  EXPECT_TRUE(Near(op("einsum", {"i,i->", std::vector<Tensor>{T({1, 2}), T({3, 4})}}), {11}, {}));
  EXPECT_TRUE(Near(op("einsum", {"i,j->ij", std::vector<Tensor>{T({1, 2}), T({3, 4})}}), {3, 4, 6, 8}, {2, 2}));
  EXPECT_TRUE(Near(op("einsum", {"ij->i", std::vector<Tensor>{seq({2, 3})}}), {3, 12}, {2}));
  EXPECT_KILN_ERROR(op("einsum", {"ij,jk", std::vector<Tensor>{a}}),
                    "einsum(): fewer operands were provided than specified in the equation");
}

TEST(Linalg, Norms) {
  Tensor x = seq({2, 3});
  EXPECT_TRUE(Near(op("norm", {x}), {7.4161983}, {}));
  EXPECT_TRUE(Near(op("norm", {x, 1, 1}), {3, 12}, {2}));
  EXPECT_TRUE(Near(op("norm", {x, INFINITY}), {5}, {}));
  EXPECT_TRUE(Near(op("norm", {x, "fro", Shape{0, 1}}), {7.4161983}, {}));
  EXPECT_TRUE(Near(op("linalg_matrix_norm", {x, 1}), {7}, {}));
  EXPECT_TRUE(Near(op("linalg_norm", {x, INFINITY}), {12}, {}));
  EXPECT_KILN_ERROR(op("norm", {T({1, 2}, {}, DType::Int64)}),
                    "linalg.vector_norm: Expected a floating point or complex tensor as input. Got Long");
  // The gradient of a zero norm is zero, not NaN.
  Tensor z = zeros({3}, DType::Float64);
  z.requires_grad_(true);
  op("norm", {z}).backward();
  EXPECT_TRUE(Near(z.grad(), {0, 0, 0}, {3}));
}

KILN_GRAD_SAMPLE("flip", { return {grad_input({2, 3}), Shape{0, -1}}; });
KILN_GRAD_SAMPLE("roll", { return {grad_input({2, 3}), Shape{2}}; });
KILN_GRAD_SAMPLE("roll", { return {grad_input({2, 3}), Shape{1, -1}, Shape{0, 1}}; });
KILN_GRAD_SAMPLE("movedim", { return {grad_input({2, 3, 2}), Shape{0}, Shape{-1}}; });
KILN_GRAD_SAMPLE("moveaxis", { return {grad_input({2, 3, 2}), Shape{0, 1}, Shape{2, 0}}; });
KILN_GRAD_SAMPLE("swapaxes", { return {grad_input({2, 3}), 0, 1}; });
KILN_GRAD_SAMPLE("swapdims", { return {grad_input({2, 3}), 0, -1}; });
KILN_GRAD_SAMPLE("unflatten", { return {grad_input({2, 6}), 1, Shape{2, -1}}; });
KILN_GRAD_SAMPLE("hstack", { return {std::vector<Tensor>{grad_input({2}), grad_input({3}, -1, 1, 2)}}; });
KILN_GRAD_SAMPLE("vstack", { return {std::vector<Tensor>{grad_input({2}), grad_input({2, 2}, -1, 1, 2)}}; });
KILN_GRAD_SAMPLE("tile", { return {grad_input({2, 3}), Shape{2, 1, 2}}; });
KILN_GRAD_SAMPLE("repeat_interleave.self_int", { return {grad_input({2, 3}), 2, -1}; });
KILN_GRAD_SAMPLE("diff", { return {grad_input({2, 4}), 2, 1, grad_input({2, 1}, -1, 1, 2), Value()}; });
KILN_GRAD_SAMPLE("masked_select", { return {grad_input({2, 3}), T({1, 0, 1}, {3}, DType::Bool)}; });
KILN_GRAD_SAMPLE("repeat_interleave.self_Tensor", { return {grad_input({2, 3}), T({2, 0, 1}, {3}, DType::Int64), 1}; });
KILN_GRAD_SAMPLE("cumsum", { return {grad_input({3, 4}), -1}; });
KILN_GRAD_SAMPLE("msort", { return {grad_input({3, 2})}; });
KILN_GRAD_SAMPLE("trapezoid.x", { return {grad_input({2, 4}), grad_input({4}, 0, 3, 2), -1}; });
KILN_GRAD_SAMPLE("trapezoid.dx", { return {grad_input({3, 2}), 0.5, 0}; });
KILN_GRAD_SAMPLE("trapz.x", { return {grad_input({4}), grad_input({4}, 0, 3, 2), 0}; });
KILN_GRAD_SAMPLE("trapz.dx", { return {grad_input({2, 3}), 2.0, -1}; });
KILN_GRAD_SAMPLE("cumulative_trapezoid.x", { return {grad_input({2, 4}), grad_input({2, 4}, 0, 3, 2), 1}; });
KILN_GRAD_SAMPLE("cumulative_trapezoid.dx", { return {grad_input({5}), 1.0, 0}; });
KILN_GRAD_SAMPLE("cumprod", { return {grad_input({3, 4}), 1}; });
KILN_GRAD_SAMPLE("cumprod", {
  Tensor x = grad_input({5}).detach();
  x.data<double>()[2] = 0;  // the exact gradient around a zero
  x.requires_grad_(true);
  return {x, 0};
});
KILN_GRAD_SAMPLE("sort", { return {grad_input({3, 4}), 0, true}; });
KILN_GRAD_SAMPLE("sort.stable", { return {grad_input({3, 4}), true, -1, false}; });
KILN_GRAD_SAMPLE("topk", { return {grad_input({3, 4}), 2, -1, false}; });
KILN_GRAD_SAMPLE("kthvalue", { return {grad_input({3, 4}), 2, 0, false}; });
KILN_GRAD_SAMPLE("median", { return {grad_input({3, 3})}; });
KILN_GRAD_SAMPLE("median.dim", { return {grad_input({3, 4}), 1, true}; });
KILN_GRAD_SAMPLE("diagonal", { return {grad_input({2, 3, 4}), -1, 2, 0}; });
KILN_GRAD_SAMPLE("diag", { return {grad_input({3}), 1}; });
KILN_GRAD_SAMPLE("diag", { return {grad_input({3, 4}), -1}; });
KILN_GRAD_SAMPLE("trace", { return {grad_input({3, 4})}; });
KILN_GRAD_SAMPLE("outer", { return {grad_input({2}), grad_input({3}, -1, 1, 2)}; });
KILN_GRAD_SAMPLE("ger", { return {grad_input({2}), grad_input({3}, -1, 1, 2)}; });
KILN_GRAD_SAMPLE("addmm", { return {grad_input({3}), grad_input({2, 4}, -1, 1, 2), grad_input({4, 3}, -1, 1, 3), 0.5, 2.0}; });
KILN_GRAD_SAMPLE("baddbmm", {
  return {grad_input({2, 2, 3}), grad_input({2, 2, 4}, -1, 1, 2), grad_input({2, 4, 3}, -1, 1, 3), 1.0, -1.5};
});
KILN_GRAD_SAMPLE("einsum", {
  return {"bij,bkj->bik", std::vector<Tensor>{grad_input({2, 2, 3}), grad_input({2, 4, 3}, -1, 1, 2)}};
});
KILN_GRAD_SAMPLE("einsum", { return {"ii,i->", std::vector<Tensor>{grad_input({3, 3}), grad_input({3}, -1, 1, 2)}}; });
KILN_GRAD_SAMPLE("norm", { return {grad_input({2, 3}), 3.0, Shape{1}}; });
KILN_GRAD_SAMPLE("norm", { return {grad_input({2, 3})}; });
KILN_GRAD_SAMPLE("norm.str", { return {grad_input({2, 3}), "fro", Shape{0}}; });
KILN_GRAD_SAMPLE("linalg_vector_norm", { return {grad_input({2, 3}), 1.0}; });
KILN_GRAD_SAMPLE("linalg_matrix_norm", { return {grad_input({2, 3}), 1.0}; });
KILN_GRAD_SAMPLE("linalg_matrix_norm.str_ord", { return {grad_input({2, 3, 2}), "fro", Shape{0, 2}}; });
KILN_GRAD_SAMPLE("linalg_norm", { return {grad_input({4})}; });
KILN_GRAD_SAMPLE("linalg_norm.ord_str", { return {grad_input({2, 3}), "fro"}; });

}  // namespace
}  // namespace kiln

// Tests for indexing ops (masked_fill, index_select, gather, scatter_add,
// index_add, index_copy, nonzero), Python subscripts (index, index_put),
// and autograd of in-place writes through views (CopySlices).
#include "core/autograd.h"
#include "core/dispatch.h"
#include "core/ops.h"
#include "tests/core/gradcheck.h"
#include "tests/core/test_util.h"

namespace kiln {
namespace {
using testing::grad_input;
using testing::Near;
using testing::T;
using I = TensorIndex;

Tensor seq(const Shape& shape, DType d = DType::Float32) {
  return reshape(arange(0, double(shape_numel(shape)), 1, d), shape);
}
Tensor B(std::vector<double> v, Shape shape = {}) { return T(std::move(v), std::move(shape), DType::Bool); }
Tensor L(std::vector<double> v, Shape shape = {}) { return T(std::move(v), std::move(shape), DType::Int64); }

// ---- masked_fill --------------------------------------------------------------------------------
TEST(MaskedFill, ScalarTensorAndBroadcast) {
  Tensor x = seq({2, 3});
  EXPECT_TRUE(Near(masked_fill(x, B({1, 0, 1}), -1.0), {-1, 1, -1, -1, 4, -1}, {2, 3}));
  EXPECT_TRUE(Near(masked_fill(x, B({0, 1}, {2, 1}), T({7})), {0, 1, 2, 7, 7, 7}, {2, 3}));
  // self broadcasts against the mask out of place.
  EXPECT_TRUE(Near(masked_fill(T({5, 6}), B({1, 0, 0, 1}, {2, 2}), 0.0), {0, 6, 5, 0}, {2, 2}));
  Tensor xi = masked_fill(seq({3}, DType::Int64), B({0, 1, 0}), 2.7);
  EXPECT_EQ(xi.dtype(), DType::Int64);
  EXPECT_TRUE(Near(xi, {0, 2, 2}, {3}));
  EXPECT_TRUE(Near(masked_fill(transpose(x, 0, 1), B({1, 0}), 9.0), {9, 3, 9, 4, 9, 5}, {3, 2}));
  EXPECT_KILN_ERROR(masked_fill(x, L({1, 0, 1}), 0.0), "masked_fill_ only supports boolean masks, but got mask with dtype");
  EXPECT_KILN_ERROR(masked_fill(x, B({1, 0, 1}), T({1, 2})),
                    "masked_fill_ only supports a 0-dimensional value tensor, but got tensor with 1 dimension(s).");
  auto via_call = call_op("masked_fill", std::vector<Value>{x, B({1, 1, 1}), Value(3.0)});
  EXPECT_TRUE(Near(via_call[0], {3, 3, 3, 3, 3, 3}, {2, 3}));
}

TEST(MaskedFill, InPlace) {
  Tensor x = seq({2, 2});
  masked_fill_(x, B({1, 0}), 5.0);
  EXPECT_TRUE(Near(x, {5, 1, 5, 3}, {2, 2}));
  Tensor row = select(x, 0, 1);
  masked_fill_(row, B({0, 1}), T({8}));
  EXPECT_TRUE(Near(x, {5, 1, 5, 8}, {2, 2}));
  EXPECT_KILN_ERROR(masked_fill_(row, B({1, 0, 1, 0}, {2, 2}), 0.0), "doesn't match the broadcast shape");
}

TEST(MaskedFill, Gradients) {
  Tensor x = grad_input({2, 3});
  Tensor v = grad_input({}, -1, 1, 7);
  Tensor y = masked_fill(x, B({1, 0, 1}), v);
  sum(mul(y, T({1, 2, 3, 4, 5, 6}, {2, 3}, DType::Float64))).backward();
  EXPECT_TRUE(Near(x.grad(), {0, 2, 0, 0, 5, 0}, {2, 3}));
  EXPECT_TRUE(Near(v.grad(), {1 + 3 + 4 + 6}, {}));
}

// ---- index_select / index_add / index_copy / gather / scatter_add / nonzero ----------------------------
TEST(IndexSelect, ValuesAndErrors) {
  Tensor x = seq({3, 2});
  EXPECT_TRUE(Near(index_select(x, 0, L({2, 0, 2})), {4, 5, 0, 1, 4, 5}, {3, 2}));
  EXPECT_TRUE(Near(index_select(x, -1, L({1})), {1, 3, 5}, {3, 1}));
  EXPECT_TRUE(Near(index_select(transpose(x, 0, 1), 1, T({1}, {1}, DType::Int32)), {2, 3}, {2, 1}));
  EXPECT_KILN_ERROR(index_select(x, 0, L({3})), "index out of range in self");
  EXPECT_KILN_ERROR(index_select(x, 0, T({0})), "index_select(): Expected dtype int32 or int64 for index");
  EXPECT_KILN_ERROR(index_select(x, 0, L({0, 0}, {1, 2})), "index_select(): Index is supposed to be a vector");
}

TEST(IndexAddCopy, Values) {
  Tensor x = zeros({3, 2});
  Tensor src = seq({2, 2});
  EXPECT_TRUE(Near(index_add(x, 0, L({2, 2}), src), {0, 0, 0, 0, 2, 4}, {3, 2}));
  EXPECT_TRUE(Near(index_add(x, 0, L({0, 1}), src, 2.0), {0, 2, 4, 6, 0, 0}, {3, 2}));
  EXPECT_TRUE(Near(index_copy(x, 1, L({1, 0}), seq({3, 2})), {1, 0, 3, 2, 5, 4}, {3, 2}));
  EXPECT_KILN_ERROR(index_copy(x, 0, L({0}), src), "index_copy_(): Number of indices (1) should be equal to source.size(dim) (2)");
  EXPECT_KILN_ERROR(index_add(x, 0, L({0, 1}), seq({2, 2}, DType::Float64)), "must have the same scalar type");
}

TEST(Gather, ValuesAndErrors) {
  Tensor x = seq({2, 3});
  EXPECT_TRUE(Near(gather(x, 1, L({2, 0, 1, 1}, {2, 2})), {2, 0, 4, 4}, {2, 2}));
  EXPECT_TRUE(Near(gather(x, 0, L({1, 0, 1}, {1, 3})), {3, 1, 5}, {1, 3}));
  EXPECT_TRUE(Near(gather(transpose(x, 0, 1), 0, L({2, 0}, {1, 2})), {2, 3}, {1, 2}));
  EXPECT_KILN_ERROR(gather(x, 1, L({3}, {1, 1})), "index 3 is out of bounds for dimension 1 with size 3");
  EXPECT_KILN_ERROR(gather(x, 1, T({0}, {1, 1}, DType::Int32)), "gather(): Expected dtype int64 for index");
  EXPECT_KILN_ERROR(gather(x, 1, L({0, 0, 0}, {3, 1})), "Size does not match at dimension 0");
}

TEST(ScatterAdd, Values) {
  Tensor z = zeros({2, 3});
  Tensor r = scatter_add(z, 1, L({0, 0, 2, 1}, {2, 2}), T({1, 2, 3, 4}, {2, 2}));
  EXPECT_TRUE(Near(r, {3, 0, 0, 0, 4, 3}, {2, 3}));
}

TEST(Nonzero, Coordinates) {
  Tensor nz = nonzero(T({0, 1, 2, 0}, {2, 2}));
  EXPECT_EQ(nz.dtype(), DType::Int64);
  EXPECT_TRUE(Near(nz, {0, 1, 1, 0}, {2, 2}));
  EXPECT_EQ(nonzero(zeros({3})).sizes(), (Shape{0, 1}));
}

// ---- index ------------------------------------------------------------------------------------------
TEST(Index, BasicIsAView) {
  Tensor x = seq({3, 4});
  Tensor v = index(x, {I::slice(1, std::nullopt), I::integer(-1)});  // x[1:, -1]
  EXPECT_TRUE(Near(v, {7, 11}, {2}));
  fill_(v, 0);
  EXPECT_DOUBLE_EQ(element_as_double(x, 7), 0);
  EXPECT_EQ(index(x, {I::none(), I::ellipsis(), I::none()}).sizes(), (Shape{1, 3, 4, 1}));
  EXPECT_EQ(index(x, {I::ellipsis(), I::integer(0)}).sizes(), (Shape{3}));
  EXPECT_TRUE(Near(index(x, {I::slice(std::nullopt, std::nullopt, 2), I::slice(1, 3)}), {1, 2, 9, 10}, {2, 2}));
  EXPECT_EQ(index(x, {I::integer(1), I::integer(2)}).dim(), 0);
}

TEST(Index, Errors) {
  Tensor x = seq({3, 4});
  EXPECT_KILN_ERROR(index(x, {I::integer(0), I::integer(0), I::integer(0)}), "too many indices for tensor of dimension 2");
  EXPECT_KILN_ERROR(index(x, {I::integer(5)}), "index 5 is out of bounds for dimension 0 with size 3");
  EXPECT_KILN_ERROR(index(x, {I::integer(0), I::integer(-5)}), "index -5 is out of bounds for dimension 1 with size 4");
  EXPECT_KILN_ERROR(index(x, {I::slice(std::nullopt, std::nullopt, -1)}), "step must be greater than zero");
  EXPECT_KILN_ERROR(index(x, {I::ellipsis(), I::ellipsis()}), "an index can only have a single ellipsis");
  I mask{I::Tensor_, 0, {}, {}, 1, B({1, 0})};
  EXPECT_KILN_ERROR(index(x, {mask}), "The shape of the mask [2] at index 0 does not match the shape of the indexed tensor [3, 4] at index 0");
}

I tensor_index(Tensor t) { return I{I::Tensor_, 0, {}, {}, 1, std::move(t)}; }

TEST(Index, AdvancedSingle) {
  Tensor x = seq({3, 4});
  EXPECT_TRUE(Near(index(x, {tensor_index(L({2, -3}))}), {8, 9, 10, 11, 0, 1, 2, 3}, {2, 4}));
  EXPECT_TRUE(Near(index(x, {I::slice(std::nullopt, std::nullopt), tensor_index(L({1, 3, 0, 0}, {2, 2}))}),
                   {1, 3, 0, 0, 5, 7, 4, 4, 9, 11, 8, 8}, {3, 2, 2}));
  EXPECT_TRUE(Near(index(x, {tensor_index(B({1, 0, 1}))}), {0, 1, 2, 3, 8, 9, 10, 11}, {2, 4}));
  Tensor m = gt(x, T({6}));
  EXPECT_TRUE(Near(index(x, {tensor_index(m)}), {7, 8, 9, 10, 11}, {5}));
  EXPECT_TRUE(Near(index(x, {I::ellipsis(), tensor_index(B({0, 1, 1, 0}))}), {1, 2, 5, 6, 9, 10}, {3, 2}));
  EXPECT_KILN_ERROR(index(x, {tensor_index(L({3}))}), "index 3 is out of bounds for dimension 0 with size 3");
  // A copy, not a view.
  Tensor c = index(x, {tensor_index(L({0}))});
  fill_(c, -1);
  EXPECT_DOUBLE_EQ(element_as_double(x, 0), 0);
}

TEST(Index, AdvancedSeveral) {
  Tensor x = seq({2, 3, 4});
  // Adjacent index tensors: their broadcast dims replace the indexed dims in place.
  Tensor a = index(x, {I::slice(std::nullopt, std::nullopt), tensor_index(L({0, 2})), tensor_index(L({1, 3}))});
  EXPECT_TRUE(Near(a, {1, 11, 13, 23}, {2, 2}));
  // Separated by a slice: broadcast dims go first.
  Tensor b = index(x, {tensor_index(L({1, 0})), I::slice(std::nullopt, std::nullopt), tensor_index(L({0, 3}))});
  EXPECT_TRUE(Near(b, {12, 16, 20, 3, 7, 11}, {2, 3}));
  Tensor c = index(x, {I::integer(1), tensor_index(L({2}, {1}))});
  EXPECT_EQ(index(x, {I::integer(1), tensor_index(L({2}))}).sizes(), (Shape{4}));  // 0-dim index
  EXPECT_TRUE(Near(c, {20, 21, 22, 23}, {1, 4}));
}

// ---- index_put --------------------------------------------------------------------------------------
TEST(IndexPut, BasicMaskAndTensorIndices) {
  Tensor x = zeros({3, 4});
  index_put(x, {I::slice(1, std::nullopt), I::integer(0)}, T({5, 6}));
  EXPECT_TRUE(Near(x, {0, 0, 0, 0, 5, 0, 0, 0, 6, 0, 0, 0}, {3, 4}));
  index_put(x, {I::integer(0)}, T({1}));  // broadcast scalar
  EXPECT_TRUE(Near(select(x, 0, 0), {1, 1, 1, 1}, {4}));
  Tensor y = seq({2, 3});
  index_put(y, {tensor_index(gt(y, T({3})))}, T({-1}));
  EXPECT_TRUE(Near(y, {0, 1, 2, 3, -1, -1}, {2, 3}));
  index_put(y, {tensor_index(B({1, 0}))}, T({7, 8, 9}, {1, 3}));
  EXPECT_TRUE(Near(y, {7, 8, 9, 3, -1, -1}, {2, 3}));
  index_put(y, {I::slice(std::nullopt, std::nullopt), tensor_index(L({2, 0}))}, T({10, 20}));
  EXPECT_TRUE(Near(y, {20, 8, 10, 20, -1, 10}, {2, 3}));
  Tensor z = zeros({4});
  index_put(z, {tensor_index(B({1, 0, 1, 1}))}, T({1, 2, 3}));
  EXPECT_TRUE(Near(z, {1, 0, 2, 3}, {4}));
  EXPECT_KILN_ERROR(index_put(z, {I::slice(0, 2)}, T({1, 2, 3})),
                    "The expanded size of the tensor (2) must match the existing size (3) at non-singleton dimension 0");
}

// ---- autograd of in-place writes through views -------------------------------------------------------
TEST(CopySlices, WriteIntoViewOfNonLeaf) {
  Tensor x = grad_input({3, 2});
  Tensor tv = grad_input({2}, -1, 1, 3);
  Tensor y = mul(x, 1.0);
  index_put(y, {I::slice(1, std::nullopt), I::integer(0)}, tv);  // y[1:, 0] = t
  Tensor w = T({1, 2, 3, 4, 5, 6}, {3, 2}, DType::Float64);
  EXPECT_EQ(y.grad_fn()->name(), "CopySlices");
  sum(mul(y, w)).backward();
  EXPECT_TRUE(Near(x.grad(), {1, 2, 0, 4, 0, 6}, {3, 2}));
  EXPECT_TRUE(Near(tv.grad(), {3, 5}, {2}));
  EXPECT_DOUBLE_EQ(element_as_double(y, 2), element_as_double(tv, 0));
}

TEST(CopySlices, BaseWithoutGrad) {
  Tensor y = zeros({3, 4}, DType::Float64);
  Tensor tv = grad_input({4});
  index_put(y, {I::integer(0)}, tv);  // y[0] = t
  EXPECT_TRUE(y.requires_grad());
  EXPECT_FALSE(y.is_leaf());
  sum(mul(y, y)).backward();
  Tensor want = mul(tv.detach(), 2.0);
  EXPECT_TRUE(Near(tv.grad(), to_double_vector(want), {4}));
}

TEST(CopySlices, InPlaceArithmeticThroughView) {
  Tensor x = grad_input({2, 3});
  Tensor s = grad_input({3}, -1, 1, 5);
  Tensor y = mul(x, 2.0);
  Tensor row = select(y, 0, 1);
  mul_(row, s);  // y[1] *= s
  Tensor col = slice(y, 1, 0, 1);
  add_(col, T({1}, {}, DType::Float64));  // y[:, :1] += 1
  sum(y).backward();
  // y[0] = 2x[0] + [1,0,0]; y[1] = 2x[1]*s + [1,0,0].
  std::vector<double> s_v = to_double_vector(s), x_v = to_double_vector(x);
  EXPECT_TRUE(Near(x.grad(), {2, 2, 2, 2 * s_v[0], 2 * s_v[1], 2 * s_v[2]}, {2, 3}));
  EXPECT_TRUE(Near(s.grad(), {2 * x_v[3], 2 * x_v[4], 2 * x_v[5]}, {3}));
}

TEST(CopySlices, ViewUsedAfterWriteSeesNewBase) {
  Tensor x = grad_input({4});
  Tensor y = mul(x, 1.0);
  Tensor head = slice(y, 0, 0, 2);
  Tensor tail = slice(y, 0, 2, 4);
  mul_(tail, T({3}, {}, DType::Float64));  // via a sibling view
  mul_(y, T({2}, {}, DType::Float64));     // and the base itself
  sum(add(head, mul(tail, 10.0))).backward();
  // head = 2x[0:2]; tail = 6x[2:4].
  EXPECT_TRUE(Near(x.grad(), {2, 2, 60, 60}, {4}));
}

TEST(CopySlices, MaskedFillThroughView) {
  Tensor x = grad_input({2, 2});
  Tensor v = grad_input({}, -1, 1, 9);
  Tensor y = mul(x, 1.0);
  Tensor row = select(y, 0, 0);
  masked_fill_(row, B({0, 1}), v);
  sum(mul(y, T({1, 2, 3, 4}, {2, 2}, DType::Float64))).backward();
  EXPECT_TRUE(Near(x.grad(), {1, 0, 3, 4}, {2, 2}));
  EXPECT_TRUE(Near(v.grad(), {2}, {}));
}

TEST(CopySlices, LoopFillsRows) {
  Tensor x = grad_input({3, 2});
  Tensor out = zeros({3, 2}, DType::Float64);
  for (int64_t i = 0; i < 3; ++i) index_put(out, {I::integer(i)}, mul(select(x, 0, i), double(i + 1)));
  sum(out).backward();
  EXPECT_TRUE(Near(x.grad(), {1, 1, 2, 2, 3, 3}, {3, 2}));
}

TEST(CopySlices, ViewsTakenBeforeTheBaseRequiredGrad) {
  Tensor y = zeros({2, 2}, DType::Float64);
  auto rows = unbind(y);
  Tensor a = grad_input({2}), b = grad_input({2}, -1, 1, 2);
  copy_(rows[0], a);
  copy_(rows[1], b);
  sum(mul(y, T({1, 2, 3, 4}, {2, 2}, DType::Float64))).backward();
  EXPECT_TRUE(Near(a.grad(), {1, 2}, {2}));
  EXPECT_TRUE(Near(b.grad(), {3, 4}, {2}));
}

TEST(CopySlices, ViewOfLeafRequiringGradIsAnError) {
  Tensor x = grad_input({3});
  Tensor v = slice(x, 0, 0, 2);
  EXPECT_KILN_ERROR(fill_(v, 0), "a view of a leaf Variable that requires grad is being used in an in-place operation.");
  EXPECT_KILN_ERROR(fill_(x, 0), "a leaf Variable that requires grad is being used in an in-place operation.");
  {
    NoGradGuard ng;
    Tensor w = slice(x, 0, 0, 2);
    fill_(w, 0.5);  // allowed without grad mode
  }
  EXPECT_DOUBLE_EQ(element_as_double(x, 1), 0.5);
}

// ---- gradient samples ---------------------------------------------------------------------------------
KILN_GRAD_SAMPLE("masked_fill.Tensor", {
  return {grad_input({2, 3}), tensor_from({1, 0, 0, 1, 1, 0}, {2, 3}, DType::Bool), grad_input({}, -1, 1, 3)};
});
KILN_GRAD_SAMPLE("masked_fill.Scalar", {
  return {grad_input({3}), tensor_from({0, 1, 0, 1, 1, 0}, {2, 3}, DType::Bool), 2.5};
});
KILN_GRAD_SAMPLE("index_select", {
  return {grad_input({3, 4}), 1, tensor_from({3, 0, 3}, {3}, DType::Int64)};
});
KILN_GRAD_SAMPLE("index_add", {
  return {grad_input({3, 2}), 0, tensor_from({2, 0, 2}, {3}, DType::Int64), grad_input({3, 2}, -1, 1, 4), 0.5};
});
KILN_GRAD_SAMPLE("index_copy", {
  return {grad_input({3, 2}), 1, tensor_from({1}, {1}, DType::Int64), grad_input({3, 1}, -1, 1, 4)};
});
KILN_GRAD_SAMPLE("gather", {
  return {grad_input({2, 3}), 1, tensor_from({2, 2, 0, 1}, {2, 2}, DType::Int64), false};
});
KILN_GRAD_SAMPLE("scatter_add", {
  return {grad_input({2, 3}), 0, narrow(tensor_from({1, 0, 1, 1}, {1, 4}, DType::Int64), 1, 0, 3),
          grad_input({1, 3}, -1, 1, 6)};
});

}  // namespace
}  // namespace kiln

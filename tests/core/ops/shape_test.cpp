// Tests for shape and view ops: values, aliasing of views, negative dims,
// non-contiguous inputs, PyTorch's error messages, and gradient samples.
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

// 0, 1, 2, ... laid out in `shape` (float32).
Tensor seq(const Shape& shape, DType d = DType::Float32) {
  return reshape(arange(0, double(shape_numel(shape)), 1, d), shape);
}

TEST(Transpose, ValuesAliasAndNegativeDims) {
  Tensor x = seq({2, 3});
  Tensor y = transpose(x, 0, -1);
  EXPECT_TRUE(Near(y, {0, 3, 1, 4, 2, 5}, {3, 2}));
  EXPECT_EQ(y.strides(), (Shape{1, 3}));
  EXPECT_FALSE(y.is_contiguous());
  Tensor one = T({100});
  Tensor v = select(y, 0, 1);  // x[:, 1]
  copy_(v, one);
  EXPECT_TRUE(Near(x, {0, 100, 2, 3, 100, 5}, {2, 3}));
  EXPECT_KILN_ERROR(transpose(x, 0, 2), "Dimension out of range (expected to be in range of [-2, 1], but got 2)");
}

TEST(Transpose, TwoDimT) {
  Tensor x = seq({2, 3});
  EXPECT_TRUE(Near(t(x), {0, 3, 1, 4, 2, 5}, {3, 2}));
  EXPECT_TRUE(Near(t(seq({3})), {0, 1, 2}, {3}));
  EXPECT_KILN_ERROR(t(seq({2, 2, 2})), "t() expects a tensor with <= 2 dimensions, but self is 3D");
}

TEST(Permute, ValuesAndErrors) {
  Tensor x = seq({2, 3, 4});
  Tensor p = permute(x, {2, 0, -2});
  EXPECT_EQ(p.sizes(), (Shape{4, 2, 3}));
  EXPECT_EQ(p.strides(), (Shape{1, 12, 4}));
  EXPECT_DOUBLE_EQ(element_as_double(p, 1 * 6 + 0 * 3 + 2), 0 * 12 + 2 * 4 + 1);  // p[1,0,2] = x[0,2,1]
  EXPECT_KILN_ERROR(permute(x, {0, 1}), "input.dim() = 3 is not equal to len(dims) = 2");
  EXPECT_KILN_ERROR(permute(x, {0, 1, 1}), "permute(): duplicate dims are not allowed.");
}

TEST(Squeeze, AllDimTuple) {
  Tensor x = seq({1, 3, 1, 2});
  EXPECT_EQ(squeeze(x).sizes(), (Shape{3, 2}));
  EXPECT_EQ(squeeze(x, Shape{0}).sizes(), (Shape{3, 1, 2}));
  EXPECT_EQ(squeeze(x, Shape{-2, 0}).sizes(), (Shape{3, 2}));
  EXPECT_EQ(squeeze(x, Shape{1}).sizes(), (Shape{1, 3, 1, 2}));  // size 3: unchanged
  EXPECT_EQ(invoke("squeeze.dim", {x, -4}).sizes(), (Shape{3, 1, 2}));
  EXPECT_EQ(call_op("squeeze", std::vector<Value>{x, Value(2)})[0].sizes(), (Shape{1, 3, 2}));
  EXPECT_EQ(squeeze(T({5})).sizes(), Shape{});
  EXPECT_EQ(squeeze(T({5}), Shape{0}).sizes(), Shape{});
  EXPECT_KILN_ERROR(squeeze(x, Shape{4}), "Dimension out of range");
  EXPECT_KILN_ERROR(squeeze(x, Shape{0, 0}), "dim 0 appears multiple times in the list of dims");
}

TEST(Unsqueeze, PositionsAndStrides) {
  Tensor x = seq({2, 3});
  EXPECT_EQ(unsqueeze(x, 0).sizes(), (Shape{1, 2, 3}));
  EXPECT_EQ(unsqueeze(x, -1).sizes(), (Shape{2, 3, 1}));
  EXPECT_EQ(unsqueeze(x, 1).sizes(), (Shape{2, 1, 3}));
  EXPECT_EQ(unsqueeze(x, 1).strides(), (Shape{3, 3, 1}));
  EXPECT_EQ(unsqueeze(T({5}), 0).sizes(), (Shape{1}));
  EXPECT_KILN_ERROR(unsqueeze(x, 3), "Dimension out of range (expected to be in range of [-3, 2], but got 3)");
  // Views of transposed input.
  Tensor u = unsqueeze(transpose(x, 0, 1), 1);
  EXPECT_TRUE(Near(u, {0, 3, 1, 4, 2, 5}, {3, 1, 2}));
}

TEST(Flatten, RangesAndErrors) {
  Tensor x = seq({2, 3, 4});
  EXPECT_EQ(flatten(x).sizes(), (Shape{24}));
  EXPECT_EQ(flatten(x, 1).sizes(), (Shape{2, 12}));
  EXPECT_EQ(flatten(x, 0, -2).sizes(), (Shape{6, 4}));
  EXPECT_EQ(flatten(T({5})).sizes(), (Shape{1}));
  Tensor ft = flatten(transpose(seq({2, 3}), 0, 1));  // copies
  EXPECT_TRUE(Near(ft, {0, 3, 1, 4, 2, 5}, {6}));
  EXPECT_KILN_ERROR(flatten(x, 2, 1), "flatten() has invalid args: start_dim cannot come after end_dim");
}

TEST(Slice, PythonClampingAndSteps) {
  Tensor x = seq({6});
  EXPECT_TRUE(Near(slice(x, 0, 1, 4), {1, 2, 3}, {3}));
  EXPECT_TRUE(Near(slice(x, 0, -2, std::nullopt), {4, 5}, {2}));
  EXPECT_TRUE(Near(slice(x, 0, std::nullopt, 100), {0, 1, 2, 3, 4, 5}, {6}));
  EXPECT_TRUE(Near(slice(x, 0, -100, 2), {0, 1}, {2}));
  EXPECT_TRUE(Near(slice(x, 0, 1, std::nullopt, 2), {1, 3, 5}, {3}));
  EXPECT_TRUE(Near(slice(x, 0, 0, 6, 4), {0, 4}, {2}));
  EXPECT_EQ(slice(x, 0, 4, 2).sizes(), (Shape{0}));
  EXPECT_EQ(slice(x, 0, 7, 9).sizes(), (Shape{0}));
  EXPECT_KILN_ERROR(slice(x, 0, 0, 3, 0), "step must be greater than zero");
  EXPECT_KILN_ERROR(slice(x, 0, 0, 3, -1), "step must be greater than zero");
  Tensor m = seq({3, 4});
  Tensor s = slice(m, -1, 1, 3);
  EXPECT_TRUE(Near(s, {1, 2, 5, 6, 9, 10}, {3, 2}));
  fill_(s, -1);  // writes through to m
  EXPECT_TRUE(Near(m, {0, -1, -1, 3, 4, -1, -1, 7, 8, -1, -1, 11}, {3, 4}));
}

TEST(Select, NegativeAndErrors) {
  Tensor x = seq({3, 2});
  EXPECT_TRUE(Near(select(x, 0, -1), {4, 5}, {2}));
  EXPECT_TRUE(Near(select(x, 1, 1), {1, 3, 5}, {3}));
  EXPECT_TRUE(Near(select(transpose(x, 0, 1), 0, 1), {1, 3, 5}, {3}));
  EXPECT_KILN_ERROR(select(x, 0, 5), "select(): index 5 out of range for tensor of size [3, 2] at dimension 0");
  EXPECT_KILN_ERROR(select(x, 0, -4), "select(): index -4 out of range for tensor of size [3, 2] at dimension 0");
  EXPECT_KILN_ERROR(select(T({1}), 0, 0), "select() cannot be applied to a 0-dim tensor.");
}

TEST(Narrow, ValuesAndErrors) {
  Tensor x = seq({3, 4});
  EXPECT_TRUE(Near(narrow(x, 1, 1, 2), {1, 2, 5, 6, 9, 10}, {3, 2}));
  EXPECT_TRUE(Near(narrow(x, 0, -1, 1), {8, 9, 10, 11}, {1, 4}));
  EXPECT_KILN_ERROR(narrow(x, 0, 2, 2), "start (2) + length (2) exceeds dimension size (3).");
  EXPECT_KILN_ERROR(narrow(x, 0, 4, 0), "start out of range (expected to be in range of [-3, 3], but got 4)");
  EXPECT_KILN_ERROR(narrow(x, 0, 0, -1), "narrow(): length must be non-negative.");
}

TEST(AsStrided, ViewsStorage) {
  Tensor x = seq({6});
  Tensor w = as_strided(x, {2, 2}, {1, 2}, 1);  // [[1,3],[2,4]]
  EXPECT_TRUE(Near(w, {1, 3, 2, 4}, {2, 2}));
  fill_(w, 0);
  EXPECT_TRUE(Near(x, {0, 0, 0, 0, 0, 5}, {6}));
  EXPECT_KILN_ERROR(as_strided(x, {3, 3}, {3, 1}, 0), "out of bounds for storage of size 24");
  Tensor d = call_op("as_strided", std::vector<Value>{slice(seq({6}), 0, 2, std::nullopt), Shape{2}, Shape{1}})[0];
  EXPECT_TRUE(Near(d, {2, 3}, {2}));  // storage_offset defaults to the input's
}

TEST(AsStrided, GradientNonOverlapping) {
  Tensor x = grad_input({2, 3});
  Tensor y = as_strided(x, {2, 2}, {1, 3}, 1);  // x[:, 1:3].T
  sum(mul(y, T({1, 2, 3, 4}, {2, 2}, DType::Float64))).backward();
  EXPECT_TRUE(Near(x.grad(), {0, 1, 3, 0, 2, 4}, {2, 3}));
  Tensor z = grad_input({4});
  Tensor o = as_strided(z, {3}, {0}, 0);
  EXPECT_KILN_ERROR(sum(o).backward(), "overlapping");
}

TEST(Cat, ValuesPromotionAndErrors) {
  Tensor a = seq({2, 2}), b = seq({2, 1}, DType::Int64);
  Tensor c = cat({a, b}, -1);
  EXPECT_EQ(c.dtype(), DType::Float32);
  EXPECT_TRUE(Near(c, {0, 1, 0, 2, 3, 1}, {2, 3}));
  Tensor ints = cat({seq({2}, DType::Int32), seq({1}, DType::Int64)});
  EXPECT_EQ(ints.dtype(), DType::Int64);
  EXPECT_TRUE(Near(cat({a, transpose(a, 0, 1)}, 0), {0, 1, 2, 3, 0, 2, 1, 3}, {4, 2}));
  Tensor empty1d = zeros({0});
  EXPECT_TRUE(Near(cat({empty1d, a, empty1d}, 1), {0, 1, 2, 3}, {2, 2}));
  EXPECT_EQ(cat({empty1d, empty1d}).sizes(), (Shape{0}));
  EXPECT_KILN_ERROR(cat({a, seq({3, 1})}, 1),
                    "Sizes of tensors must match except in dimension 1. Expected size 2 but got size 3 for tensor "
                    "number 1 in the list.");
  EXPECT_KILN_ERROR(cat({}, 0), "torch.cat(): expected a non-empty list of Tensors");
  EXPECT_KILN_ERROR(cat({a, seq({2})}), "Tensors must have same number of dimensions: got 2 and 1");
  EXPECT_KILN_ERROR(cat({T({1})}), "zero-dimensional tensor (at position 0) cannot be concatenated");
}

TEST(Stack, Dims) {
  Tensor a = T({1, 2}), b = T({3, 4});
  EXPECT_TRUE(Near(stack({a, b}), {1, 2, 3, 4}, {2, 2}));
  EXPECT_TRUE(Near(stack({a, b}, -1), {1, 3, 2, 4}, {2, 2}));
  EXPECT_KILN_ERROR(stack({a, T({1, 2, 3})}), "stack expects each tensor to be equal size, but got [2] at entry 0 and [3] at entry 1");
  EXPECT_KILN_ERROR(stack({}), "stack expects a non-empty TensorList");
}

TEST(Split, ViewsAndSizes) {
  Tensor x = seq({5, 2});
  auto parts = split(x, 2);
  ASSERT_EQ(parts.size(), 3u);
  EXPECT_TRUE(Near(parts[2], {8, 9}, {1, 2}));
  fill_(parts[1], 0);  // views alias x
  EXPECT_TRUE(Near(x, {0, 1, 2, 3, 0, 0, 0, 0, 8, 9}, {5, 2}));
  auto cols = split(x, 1, -1);
  ASSERT_EQ(cols.size(), 2u);
  EXPECT_EQ(cols[0].sizes(), (Shape{5, 1}));
  auto ws = split_with_sizes(seq({5}), {1, 4});
  EXPECT_TRUE(Near(ws[1], {1, 2, 3, 4}, {4}));
  auto via_call = call_op("split", std::vector<Value>{seq({5}), Shape{2, 3}});
  EXPECT_EQ(via_call.size(), 2u);
  EXPECT_EQ(via_call[1].sizes(), (Shape{3}));
  EXPECT_KILN_ERROR(split_with_sizes(seq({5}), {2, 2}),
                    "split_with_sizes expects split_sizes to sum exactly to 5 (input tensor's size at dimension 0), "
                    "but got split_sizes=[2, 2]");
  EXPECT_KILN_ERROR(split(seq({3}), 0), "split_size can only be 0 if dimension size is 0");
  EXPECT_KILN_ERROR(split(seq({3}), -1), "split expects split_size be non-negative, but got split_size=-1");
}

TEST(Chunk, PyTorchSizes) {
  auto c = chunk(seq({5}), 3);  // ceil(5/3) = 2: [2, 2, 1]
  ASSERT_EQ(c.size(), 3u);
  EXPECT_EQ(c[2].sizes(), (Shape{1}));
  auto fewer = chunk(seq({6}), 4);  // ceil(6/4) = 2: only 3 chunks
  ASSERT_EQ(fewer.size(), 3u);
  EXPECT_TRUE(Near(fewer[2], {4, 5}, {2}));
  EXPECT_EQ(chunk(zeros({0}), 2).size(), 2u);
  EXPECT_EQ(chunk(seq({2, 4}), 2, -1)[1].sizes(), (Shape{2, 2}));
  EXPECT_KILN_ERROR(chunk(seq({3}), 0), "chunk expects `chunks` to be greater than 0, got: 0");
}

TEST(Unbind, Slices) {
  auto rows = unbind(seq({2, 3}), 1);
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_TRUE(Near(rows[1], {1, 4}, {2}));
}

TEST(TrilTriu, DiagonalsAndBatches) {
  Tensor x = add(seq({3, 3}), 1.0);
  EXPECT_TRUE(Near(tril(x), {1, 0, 0, 4, 5, 0, 7, 8, 9}, {3, 3}));
  EXPECT_TRUE(Near(triu(x), {1, 2, 3, 0, 5, 6, 0, 0, 9}, {3, 3}));
  EXPECT_TRUE(Near(tril(x, -1), {0, 0, 0, 4, 0, 0, 7, 8, 0}, {3, 3}));
  EXPECT_TRUE(Near(triu(x, 1), {0, 2, 3, 0, 0, 6, 0, 0, 0}, {3, 3}));
  Tensor b = add(seq({2, 2, 3}), 1.0);
  EXPECT_TRUE(Near(triu(b), {1, 2, 3, 0, 5, 6, 7, 8, 9, 0, 11, 12}, {2, 2, 3}));
  EXPECT_TRUE(Near(tril(transpose(x, 0, 1)), {1, 0, 0, 2, 5, 0, 3, 6, 9}, {3, 3}));
  Tensor i = tril(seq({2, 2}, DType::Int64));
  EXPECT_EQ(i.dtype(), DType::Int64);
  EXPECT_KILN_ERROR(tril(seq({3})), "tril: input tensor must have at least 2 dimensions");
}

TEST(Equal, ShapesAndValues) {
  EXPECT_TRUE(equal(seq({2, 2}), seq({2, 2})));
  EXPECT_FALSE(equal(seq({4}), seq({2, 2})));
  EXPECT_FALSE(equal(T({1, 2}), T({1, 3})));
  EXPECT_TRUE(equal(transpose(seq({2, 2}), 0, 1), T({0, 2, 1, 3}, {2, 2})));
  EXPECT_FALSE(equal(T({NAN}), T({NAN})));
  Tensor r = call_op("equal", std::vector<Value>{T({1}), T({1})})[0];
  EXPECT_EQ(r.dtype(), DType::Bool);
  EXPECT_EQ(r.dim(), 0);
}

TEST(Allclose, Tolerances) {
  EXPECT_TRUE(allclose(T({1, 2}), T({1 + 1e-6, 2})));
  EXPECT_FALSE(allclose(T({1, 2}), T({1.001, 2})));
  EXPECT_TRUE(allclose(T({1, 2}), T({1.001, 2}), 1e-2));
  EXPECT_TRUE(allclose(T({0}), T({1e-9})));
  EXPECT_FALSE(allclose(T({0}), T({1e-7})));
  EXPECT_TRUE(allclose(T({0}), T({1e-7}), 1e-5, 1e-6));
  EXPECT_FALSE(allclose(T({NAN}), T({NAN})));
  EXPECT_TRUE(allclose(T({NAN}), T({NAN}), 1e-5, 1e-8, true));
  EXPECT_TRUE(allclose(T({INFINITY}), T({INFINITY})));
  EXPECT_FALSE(allclose(T({INFINITY}), T({-INFINITY})));
  EXPECT_TRUE(allclose(T({1, 1}, {2}), T({1})));  // broadcasts
  EXPECT_KILN_ERROR(allclose(T({1}), T({1}, {}, DType::Float64)), "Float did not match Double");
}

TEST(ViewAutograd, GradientsThroughViews) {
  Tensor x = grad_input({2, 3});
  Tensor y = add(mul(select(x, 0, 1), 2.0), sum(slice(transpose(x, 0, 1), 0, 1, std::nullopt)));
  sum(y).backward();
  // d/dx: 2 on row 1; the transposed slice covers columns 1..2 of x, each summed 3 times.
  EXPECT_TRUE(Near(x.grad(), {0, 3, 3, 2, 5, 5}, {2, 3}));
}

KILN_GRAD_SAMPLE("view", { return {grad_input({2, 3}), Shape{3, 2}}; });
KILN_GRAD_SAMPLE("reshape", { return {grad_input({2, 3}), Shape{-1}}; });
KILN_GRAD_SAMPLE("expand", { return {grad_input({3, 1}), Shape{2, 3, 4}}; });
KILN_GRAD_SAMPLE("contiguous", { return {grad_input({2, 3})}; });
KILN_GRAD_SAMPLE("transpose", { return {grad_input({2, 3, 2}), 0, -1}; });
KILN_GRAD_SAMPLE("t", { return {grad_input({2, 3})}; });
KILN_GRAD_SAMPLE("permute", { return {grad_input({2, 3, 4}), Shape{1, 2, 0}}; });
KILN_GRAD_SAMPLE("unsqueeze", { return {grad_input({2, 3}), -2}; });
KILN_GRAD_SAMPLE("squeeze", { return {grad_input({2, 1, 3})}; });
KILN_GRAD_SAMPLE("squeeze.dim", { return {grad_input({2, 1, 3}), 1}; });
KILN_GRAD_SAMPLE("squeeze.dims", { return {grad_input({1, 2, 1}), Shape{0, -1}}; });
KILN_GRAD_SAMPLE("flatten", { return {grad_input({2, 3, 2}), 1, 2}; });
KILN_GRAD_SAMPLE("slice", { return {grad_input({3, 5}), 1, 1, 5, 2}; });
KILN_GRAD_SAMPLE("slice", { return {grad_input({4, 2}), 0, -3, Value(), 1}; });
KILN_GRAD_SAMPLE("select", { return {grad_input({3, 4}), 1, -1}; });
KILN_GRAD_SAMPLE("narrow", { return {grad_input({3, 4}), 1, 1, 2}; });
KILN_GRAD_SAMPLE("as_strided", { return {grad_input({3, 4}), Shape{2, 2}, Shape{1, 4}, 5}; });
KILN_GRAD_SAMPLE("cat", {
  return {std::vector<Tensor>{grad_input({2, 1}), grad_input({2, 2}, -1, 1, 2), zeros({0}, DType::Float64)}, 1};
});
KILN_GRAD_SAMPLE("stack", { return {std::vector<Tensor>{grad_input({2}), grad_input({2}, -1, 1, 2)}, 1}; });
KILN_GRAD_SAMPLE("split", { return {grad_input({5, 2}), 2, 0}; });
KILN_GRAD_SAMPLE("split.sizes", { return {grad_input({2, 5}), Shape{3, 2}, -1}; });
KILN_GRAD_SAMPLE("split_with_sizes", { return {grad_input({5}), Shape{1, 4}, 0}; });
KILN_GRAD_SAMPLE("chunk", { return {grad_input({2, 5}), 2, 1}; });
KILN_GRAD_SAMPLE("tensor_split", { return {grad_input({2, 5}), 3, 1}; });
KILN_GRAD_SAMPLE("hsplit", { return {grad_input({2, 6}), 3}; });
KILN_GRAD_SAMPLE("hsplit.array", { return {grad_input({5}), Shape{1, 3}}; });
KILN_GRAD_SAMPLE("vsplit", { return {grad_input({4, 2}), 2}; });
KILN_GRAD_SAMPLE("vsplit.array", { return {grad_input({3, 2}), Shape{2}}; });
KILN_GRAD_SAMPLE("dsplit", { return {grad_input({1, 2, 4}), 2}; });
KILN_GRAD_SAMPLE("dsplit.array", { return {grad_input({1, 2, 4}), Shape{1, 3}}; });
KILN_GRAD_SAMPLE("ravel", { return {grad_input({2, 3})}; });
KILN_GRAD_SAMPLE("concat", {
  return {std::vector<Tensor>{grad_input({2, 1}), grad_input({2, 2}, -1, 1, 2)}, 1};
});
KILN_GRAD_SAMPLE("concatenate", { return {std::vector<Tensor>{grad_input({1, 2}), grad_input({2, 2}, -1, 1, 2)}}; });
KILN_GRAD_SAMPLE("unfold", { return {grad_input({2, 7}), 1, 3, 2}; });
KILN_GRAD_SAMPLE("unfold", { return {grad_input({6}), 0, 3, 1}; });  // overlapping windows
KILN_GRAD_SAMPLE("tensor_split.indices", { return {grad_input({7}), Shape{1, 5, 3, 9}, 0}; });
KILN_GRAD_SAMPLE("unbind", { return {grad_input({2, 3}), 1}; });
KILN_GRAD_SAMPLE("tril", { return {grad_input({2, 3, 3}), 0}; });
KILN_GRAD_SAMPLE("triu", { return {grad_input({3, 4}), 1}; });
KILN_GRAD_SAMPLE("_to_device", { return {grad_input({2, 3}), -1, -1}; });  // cpu -> cpu: a copy

}  // namespace
}  // namespace kiln

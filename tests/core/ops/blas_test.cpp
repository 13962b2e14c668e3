// Tests for the matrix products: mm/bmm kernels (strided and copied BLAS
// operands, every dtype), the matmul shape cases against a naive reference,
// PyTorch's error wording, and gradient samples.
#include <algorithm>
#include <span>

#include "core/autograd.h"
#include "core/ops.h"
#include "core/ops/onednn_matmul.h"
#include "tests/core/gradcheck.h"
#include "tests/core/test_util.h"

namespace kiln {
namespace {
using testing::grad_input;
using testing::Near;
using testing::T;

// torch.matmul by definition: 1-D operands promoted and their dim removed
// again, batch dims broadcast, every product summed in double.
std::pair<std::vector<double>, Shape> ref_matmul(const Tensor& a, const Tensor& b) {
  std::vector<double> va = to_double_vector(a), vb = to_double_vector(b);
  Shape sa = a.sizes(), sb = b.sizes();
  if (a.dim() == 1) sa.insert(sa.begin(), 1);
  if (b.dim() == 1) sb.push_back(1);
  int64_t m = sa[sa.size() - 2], k = sa.back(), n = sb.back();
  Shape ba(sa.begin(), sa.end() - 2), bb(sb.begin(), sb.end() - 2);
  size_t nd = std::max(ba.size(), bb.size());
  ba.insert(ba.begin(), nd - ba.size(), 1);
  bb.insert(bb.begin(), nd - bb.size(), 1);
  Shape batch(nd);
  for (size_t i = 0; i < nd; ++i) batch[i] = std::max(ba[i], bb[i]);
  std::vector<double> out;
  for (int64_t bi = 0; bi < shape_numel(batch); ++bi) {
    int64_t oa = 0, ob = 0, rem = bi, mula = 1, mulb = 1;
    for (int64_t d = int64_t(nd) - 1; d >= 0; --d) {
      int64_t idx = rem % batch[size_t(d)];
      rem /= batch[size_t(d)];
      oa += (ba[size_t(d)] == 1 ? 0 : idx) * mula;
      ob += (bb[size_t(d)] == 1 ? 0 : idx) * mulb;
      mula *= ba[size_t(d)];
      mulb *= bb[size_t(d)];
    }
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < n; ++j) {
        double acc = 0;
        for (int64_t p = 0; p < k; ++p) acc += va[size_t((oa * m + i) * k + p)] * vb[size_t((ob * k + p) * n + j)];
        out.push_back(acc);
      }
  }
  Shape shape = batch;
  if (a.dim() > 1) shape.push_back(m);
  if (b.dim() > 1) shape.push_back(n);
  return {out, shape};
}

::testing::AssertionResult MatchesRef(const Tensor& a, const Tensor& b) {
  auto [want, shape] = ref_matmul(a, b);
  return Near(matmul(a, b), want, shape, 1e-5);
}

Tensor A23() { return T({1, 2, 3, 4, 5, 6}, {2, 3}); }
Tensor B32() { return T({7, 8, 9, 10, 11, 12}, {3, 2}); }

TEST(Mm, HandComputed) {
  EXPECT_TRUE(Near(mm(A23(), B32()), {58, 64, 139, 154}, {2, 2}));
  EXPECT_EQ(mm(A23(), B32()).dtype(), DType::Float32);
}

TEST(Mm, TransposedOperandsUseStrides) {
  Tensor at = transpose(T({1, 4, 2, 5, 3, 6}, {3, 2}), 0, 1);  // A23, column-major
  Tensor bt = transpose(T({7, 9, 11, 8, 10, 12}, {2, 3}), 0, 1);  // B32, column-major
  EXPECT_FALSE(at.is_contiguous());
  EXPECT_TRUE(Near(mm(at, B32()), {58, 64, 139, 154}, {2, 2}));
  EXPECT_TRUE(Near(mm(A23(), bt), {58, 64, 139, 154}, {2, 2}));
  EXPECT_TRUE(Near(mm(at, bt), {58, 64, 139, 154}, {2, 2}));
}

TEST(Mm, StridedSlicedAndExpandedOperandsAreCopied) {
  Tensor wide = reshape(arange(0, 12, 1, DType::Float32), {2, 6});
  Tensor every_other = slice(wide, 1, 0, 6, 2);  // [[0,2,4],[6,8,10]], column stride 2
  EXPECT_TRUE(Near(mm(every_other, B32()), {62, 68, 224, 248}, {2, 2}));
  Tensor rows = expand(T({1, 2, 3}, {1, 3}), {2, 3});  // row stride 0
  EXPECT_TRUE(Near(mm(rows, B32()), {58, 64, 58, 64}, {2, 2}));
  // A sub-block of a larger matrix: row-major with a leading dimension larger than its width.
  Tensor block = slice(slice(wide, 1, 1, 4), 0, 0, 2);  // [[1,2,3],[7,8,9]]
  EXPECT_TRUE(Near(mm(block, B32()), {58, 64, 220, 244}, {2, 2}));
}

// One row or one column of output (a batch-1 linear layer, a matrix-vector
// product) goes to gemv: every operand layout, sizes on both sides of the
// pool's split, float and double, against the naive reference.
TEST(Mm, VectorShapedProductsInEveryLayout) {
  for (int64_t big : {5, 700}) {
    for (DType d : {DType::Float32, DType::Float64}) {
      Tensor row = sin(reshape(arange(0, double(big), 1, d), {1, big}));
      Tensor col = cos(reshape(arange(0, double(big), 1, d), {big, 1}));
      Tensor mat = sin(reshape(arange(0, double(big * 9), 1, d), {big, 9}));
      Tensor mat_t = transpose(contiguous(transpose(mat, 0, 1)), 0, 1);  // same values, column-major
      Tensor row_t = transpose(slice(mat, 1, 2, 3), 0, 1);  // [1, big], elements 9 apart
      Tensor wide = sin(reshape(arange(0, double(9 * big), 1, d), {9, big}));
      Tensor wide_t = transpose(contiguous(transpose(wide, 0, 1)), 0, 1);
      for (const Tensor& m : {mat, mat_t}) {
        EXPECT_TRUE(MatchesRef(row, m)) << big;    // [1, big] @ [big, 9]
        EXPECT_TRUE(MatchesRef(row_t, m)) << big;  // the row itself strided
        EXPECT_TRUE(MatchesRef(transpose(m, 0, 1), slice(mat, 1, 4, 5))) << big;  // a strided column
        EXPECT_TRUE(MatchesRef(transpose(m, 0, 1), col)) << big;  // [9, big] @ [big, 1]
      }
      for (const Tensor& w : {wide, wide_t}) {
        EXPECT_TRUE(MatchesRef(w, col)) << big;                    // [9, big] @ [big, 1]
        EXPECT_TRUE(MatchesRef(transpose(col, 0, 1), transpose(w, 0, 1))) << big;  // [1, big] @ [big, 9]
      }
      // Wide enough on the output side for the pool to split the product.
      Tensor x = sin(reshape(arange(0, 600.0, 1, d), {1, 600}));
      Tensor W = cos(reshape(arange(0, 600.0 * 1000, 1, d), {1000, 600}));
      EXPECT_TRUE(MatchesRef(x, transpose(W, 0, 1)));  // linear's x @ W.t()
      EXPECT_TRUE(MatchesRef(W, transpose(x, 0, 1)));
    }
  }
}

TEST(Mm, Dtypes) {
  EXPECT_TRUE(Near(mm(to_dtype(A23(), DType::Float64), to_dtype(B32(), DType::Float64)), {58, 64, 139, 154},
                   {2, 2}, 1e-12));
  Tensor i = mm(to_dtype(A23(), DType::Int64), to_dtype(B32(), DType::Int64));
  EXPECT_EQ(i.dtype(), DType::Int64);
  EXPECT_TRUE(Near(i, {58, 64, 139, 154}, {2, 2}, 0));
  EXPECT_TRUE(Near(mm(to_dtype(A23(), DType::Int32), to_dtype(B32(), DType::Int32)), {58, 64, 139, 154}, {2, 2}, 0));
  Tensor h = mm(to_dtype(A23(), DType::Float16), to_dtype(B32(), DType::Float16));
  EXPECT_EQ(h.dtype(), DType::Float16);
  EXPECT_TRUE(Near(h, {58, 64, 139, 154}, {2, 2}));
  EXPECT_TRUE(Near(mm(to_dtype(A23(), DType::BFloat16), to_dtype(B32(), DType::BFloat16)), {58, 64, 139, 154},
                   {2, 2}, 1e-2));
}

TEST(Mm, EmptyDims) {
  EXPECT_TRUE(Near(mm(zeros({2, 0}), zeros({0, 3})), {0, 0, 0, 0, 0, 0}, {2, 3}));
  EXPECT_EQ(mm(zeros({0, 4}), zeros({4, 3})).sizes(), (Shape{0, 3}));
}

TEST(Mm, Errors) {
  EXPECT_KILN_ERROR(mm(zeros({2, 3}), zeros({4, 5})), "mat1 and mat2 shapes cannot be multiplied (2x3 and 4x5)");
  EXPECT_KILN_ERROR(mm(zeros({2, 3}), zeros({3, 2}, DType::Float64)),
                    "expected m1 and m2 to have the same dtype, but got: float != double");
  EXPECT_KILN_ERROR(mm(zeros({3}), zeros({3, 2})), "self must be a matrix");
  EXPECT_KILN_ERROR(mm(zeros({2, 3}), zeros({3})), "mat2 must be a matrix");
  EXPECT_KILN_ERROR(mm(zeros({2, 3}, DType::Bool), zeros({3, 2}, DType::Bool)),
                    "\"addmm_impl_cpu_\" not implemented for 'Bool'");
}

TEST(Bmm, ValuesAndErrors) {
  Tensor a = stack({A23(), mul(A23(), 2.0)});
  Tensor b = stack({B32(), B32()});
  EXPECT_TRUE(Near(bmm(a, b), {58, 64, 139, 154, 116, 128, 278, 308}, {2, 2, 2}));
  // Transposed batch members and a broadcast (stride-0) batch dim.
  Tensor bt = transpose(stack({transpose(B32(), 0, 1), transpose(B32(), 0, 1)}), 1, 2);
  EXPECT_TRUE(Near(bmm(a, bt), {58, 64, 139, 154, 116, 128, 278, 308}, {2, 2, 2}));
  Tensor bx = expand(reshape(B32(), {1, 3, 2}), {2, 3, 2});
  EXPECT_TRUE(Near(bmm(a, bx), {58, 64, 139, 154, 116, 128, 278, 308}, {2, 2, 2}));
  EXPECT_KILN_ERROR(bmm(zeros({2, 3, 3}), zeros({2, 4, 5})),
                    "Expected size for first two dimensions of batch2 tensor to be: [2, 3] but got: [2, 4].");
  EXPECT_KILN_ERROR(bmm(zeros({2, 3}), zeros({2, 3, 5})), "batch1 must be a 3D tensor");
  EXPECT_KILN_ERROR(bmm(zeros({2, 3, 3}), zeros({3, 5})), "batch2 must be a 3D tensor");
}

// Products large enough for oneDNN (core/ops/onednn_matmul.h), in every
// layout a model produces: transposed weights (linear's x @ W.t()), a
// sub-block with a wider leading dimension, a broadcast batch member,
// attention's permuted batches, and the bf16 route through float32 copies.
TEST(Mm, LargeProductsInEveryLayoutMatchTheReference) {
  Tensor a = grad_input({96, 80}, -1, 1, 3).detach(), b = grad_input({80, 72}, -1, 1, 4).detach();
  Tensor a_t = transpose(contiguous(transpose(a, 0, 1)), 0, 1), b_t = transpose(contiguous(transpose(b, 0, 1)), 0, 1);
  for (const Tensor& x : {a, a_t})
    for (const Tensor& y : {b, b_t}) EXPECT_TRUE(MatchesRef(x, y)) << x.strides()[0] << " " << y.strides()[0];
  Tensor wide = grad_input({96, 100}, -1, 1, 5).detach();
  EXPECT_TRUE(MatchesRef(slice(wide, 1, 10, 90), b));  // leading dimension 100, width 80
  EXPECT_TRUE(MatchesRef(slice(wide, 1, 0, 100, 2), slice(grad_input({50, 72}, -1, 1, 6).detach(), 0, 0, 50)));
  Tensor batch = grad_input({6, 96, 80}, -1, 1, 7).detach();
  EXPECT_TRUE(MatchesRef(batch, expand(reshape(b, {1, 80, 72}), {6, 80, 72})));
  Tensor q = permute(grad_input({2, 64, 4, 32}, -1, 1, 8).detach(), {0, 2, 1, 3});  // [B, heads, seq, d]
  Tensor k = permute(grad_input({2, 64, 4, 32}, -1, 1, 9).detach(), {0, 2, 3, 1});  // [B, heads, d, seq]
  EXPECT_TRUE(MatchesRef(q, k));
  Tensor half = to_dtype(a, DType::BFloat16);
  EXPECT_TRUE(Near(mm(half, to_dtype(b, DType::BFloat16)), ref_matmul(half, to_dtype(b, DType::BFloat16)).first,
                   {96, 72}, 1e-2));
}

// The products above really run on oneDNN: a silent fall back to OpenBLAS
// would pass them and lose the speed.
TEST(OnednnBmm, TakesDenseTransposedAndBroadcastLayouts) {
  const int64_t batch = 3, m = 64, n = 48, k = 40;
  std::vector<float> a(size_t(batch * m * k)), b(size_t(k * n)), c(size_t(batch * m * n));
  for (size_t i = 0; i < a.size(); ++i) a[i] = float(i % 7) - 3;
  for (size_t i = 0; i < b.size(); ++i) b[i] = float(i % 5) - 2;
  // b read transposed ([n, k] in memory) and broadcast over the batch.
  ops::MatmulOperand oa{a.data(), m * k, k, 1}, ob{b.data(), 0, 1, k};
  ASSERT_TRUE(ops::onednn_bmm(batch, m, n, k, oa, ob, c.data()));
  for (int64_t bi = 0; bi < batch; ++bi)
    for (int64_t i = 0; i < m; i += 7)
      for (int64_t j = 0; j < n; j += 5) {
        float want = 0;
        for (int64_t p = 0; p < k; ++p) want += a[size_t(bi * m * k + i * k + p)] * b[size_t(j * k + p)];
        ASSERT_EQ(c[size_t((bi * m + i) * n + j)], want) << bi << " " << i << " " << j;
      }
}

// Post-ops on the output pass, exact on integer data: bias per column, then
// a dense residual, then relu; the cache keeps them apart from the plain product.
TEST(OnednnBmm, PostOpsFinishTheProductInItsOutputPass) {
  const int64_t m = 64, n = 80, k = 64;
  std::vector<float> a(size_t(m * k)), b(size_t(k * n)), bias(static_cast<size_t>(n)), res(size_t(m * n)),
      c(size_t(m * n));
  for (size_t i = 0; i < a.size(); ++i) a[i] = float(i % 7) - 3;
  for (size_t i = 0; i < b.size(); ++i) b[i] = float(i % 5) - 2;
  for (size_t i = 0; i < bias.size(); ++i) bias[i] = float(i % 9) - 4;
  for (size_t i = 0; i < res.size(); ++i) res[i] = float(i % 11) - 5;
  ops::MatmulOperand oa{a.data(), 0, k, 1}, ob{b.data(), 0, n, 1};
  using Post = ops::MatmulPostOp;
  const Post post[] = {{Post::Kind::AddRow, bias.data()}, {Post::Kind::AddFull, res.data()}, {Post::Kind::Relu}};
  for (bool with_post : {true, false}) {
    ASSERT_TRUE(ops::onednn_bmm(1, m, n, k, oa, ob, c.data(), with_post ? std::span<const Post>(post) : std::span<const Post>()));
    int negatives = 0;
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < n; ++j) {
        float want = 0;
        for (int64_t p = 0; p < k; ++p) want += a[size_t(i * k + p)] * b[size_t(p * n + j)];
        if (with_post) want = std::max(want + bias[size_t(j)] + res[size_t(i * n + j)], 0.0f);
        negatives += want < 0;
        ASSERT_EQ(c[size_t(i * n + j)], want) << with_post << " " << i << " " << j;
      }
    EXPECT_EQ(negatives > 0, !with_post);  // the data exercises the relu
  }
}

// Kiln links OpenBLAS's OpenMP build, whose threads are the team the pool and
// oneDNN run on; the pthread build's threads spin against that team and run
// large products 2-3x slower (docs/benchmarks.md, 2026-12-01).
extern "C" int openblas_get_parallel(void);
TEST(Blas, OpenBlasIsTheOpenMPBuild) { EXPECT_EQ(openblas_get_parallel(), 2); }

TEST(Matmul, EveryShapeCase) {
  const std::vector<std::pair<Shape, Shape>> cases = {
      {{3}, {3}},          {{2, 3}, {3}},       {{3}, {3, 4}},          {{2, 3}, {3, 4}},
      {{5, 2, 3}, {3, 4}}, {{5, 2, 3}, {3}},    {{3}, {5, 3, 4}},       {{2, 3}, {5, 3, 4}},
      {{2, 1, 2, 3}, {5, 3, 4}}, {{1, 2, 3}, {5, 3, 4}}, {{5, 2, 3}, {1, 3, 4}}, {{4, 5, 2, 3}, {5, 3, 2}},
      {{3}, {2, 2, 3, 1}}, {{2, 2, 3}, {2, 3, 2}}};
  uint64_t seed = 1;
  for (const auto& [sa, sb] : cases) {
    for (bool grad : {false, true}) {  // requires_grad changes PyTorch's (and our) folding route
      Tensor a = grad_input(sa, -1, 1, seed++).detach(), b = grad_input(sb, -1, 1, seed++).detach();
      a.requires_grad_(grad);
      b.requires_grad_(grad);
      EXPECT_TRUE(MatchesRef(a, b)) << shape_str(sa) << " @ " << shape_str(sb);
    }
  }
}

TEST(Matmul, DotIsZeroDim) {
  Tensor r = matmul(T({1, 2, 3}), T({4, 5, 6}));
  EXPECT_TRUE(Near(r, {32}, {}));
  EXPECT_TRUE(Near(dot(T({1, 2, 3}), T({4, 5, 6})), {32}, {}));
  EXPECT_TRUE(Near(mv(A23(), T({1, 1, 1})), {6, 15}, {2}));
}

TEST(Matmul, NonContiguousBatches) {
  Tensor a = transpose(grad_input({3, 4, 2}).detach(), 1, 2);  // [3, 2, 4], last two dims transposed
  Tensor b = permute(grad_input({5, 3, 4}, -1, 1, 7).detach(), {1, 2, 0});  // [3, 4, 5]
  EXPECT_TRUE(MatchesRef(a, b));
  EXPECT_TRUE(MatchesRef(a, transpose(grad_input({3, 4}, -1, 1, 9).detach(), 0, 1)));
}

TEST(Matmul, Errors) {
  EXPECT_KILN_ERROR(matmul(scalar_tensor(1, DType::Float32, false), zeros({3})),
                    "both arguments to matmul need to be at least 1D, but they are 0D and 1D");
  EXPECT_KILN_ERROR(matmul(zeros({2, 3}), zeros({4, 5})), "mat1 and mat2 shapes cannot be multiplied (2x3 and 4x5)");
  EXPECT_KILN_ERROR(matmul(zeros({2, 3, 3}), zeros({2, 4, 5})),
                    "Expected size for first two dimensions of batch2 tensor to be: [2, 3] but got: [2, 4].");
  EXPECT_KILN_ERROR(matmul(zeros({3}), zeros({4})),
                    "inconsistent tensor size, expected tensor [3] and src [4] to have the same number of elements");
  EXPECT_KILN_ERROR(matmul(zeros({2, 3}), zeros({4})), "size mismatch, got input (2), mat (2x3), vec (4)");
  EXPECT_KILN_ERROR(matmul(zeros({3}), zeros({3}, DType::Float64)),
                    "dot : expected both vectors to have same dtype, but found Float and Double");
  EXPECT_KILN_ERROR(matmul(zeros({2, 3}), zeros({3, 2}, DType::Float64)),
                    "expected m1 and m2 to have the same dtype, but got: float != double");
}

TEST(Matmul, GradientsReachBothOperands) {
  Tensor a = grad_input({2, 2, 3}), b = grad_input({3, 4}, -1, 1, 2);
  sum(matmul(a, b)).backward();
  // d sum(a @ b) / d a[..., i, p] = sum_j b[p, j]; d / d b[p, j] = sum over batches and rows of a[..., p].
  auto vb = to_double_vector(b), va = to_double_vector(a);
  for (int64_t p = 0; p < 3; ++p) {
    double row = 0, col = 0;
    for (int64_t j = 0; j < 4; ++j) row += vb[size_t(p * 4 + j)];
    for (int64_t r = 0; r < 4; ++r) col += va[size_t(r * 3 + p)];
    EXPECT_NEAR(element_as_double(a.grad(), p), row, 1e-12);
    EXPECT_NEAR(element_as_double(b.grad(), p * 4), col, 1e-12);
  }
}

TEST(Linear, WithAndWithoutBias) {
  Tensor x = A23(), w = T({1, 0, 1, 0, 1, 0}, {2, 3}), b = T({10, 20});
  EXPECT_TRUE(Near(linear(x, w), {4, 2, 10, 5}, {2, 2}));
  EXPECT_TRUE(Near(linear(x, w, b), {14, 22, 20, 25}, {2, 2}));
  EXPECT_TRUE(Near(linear(reshape(x, {1, 2, 3}), w, b), {14, 22, 20, 25}, {1, 2, 2}));
  EXPECT_TRUE(Near(linear(T({1, 2, 3}), w, b), {14, 22}, {2}));
  EXPECT_KILN_ERROR(linear(zeros({2, 3}), zeros({4, 5})), "mat1 and mat2 shapes cannot be multiplied (2x3 and 5x4)");
}

KILN_GRAD_SAMPLE("mm", { return {grad_input({2, 3}), grad_input({3, 4}, -1, 1, 2)}; });
KILN_GRAD_SAMPLE("mm", {  // a transposed (column-major) leaf
  Tensor a = transpose(grad_input({3, 2}).detach(), 0, 1);
  a.requires_grad_(true);
  return {a, grad_input({3, 4}, -1, 1, 2)};
});
KILN_GRAD_SAMPLE("bmm", { return {grad_input({2, 2, 3}), grad_input({2, 3, 4}, -1, 1, 2)}; });
KILN_GRAD_SAMPLE("dot", { return {grad_input({3}), grad_input({3}, -1, 1, 2)}; });
KILN_GRAD_SAMPLE("vdot", { return {grad_input({3}), grad_input({3}, -1, 1, 2)}; });
KILN_GRAD_SAMPLE("inner", { return {grad_input({2, 3}), grad_input({4, 3}, -1, 1, 2)}; });
KILN_GRAD_SAMPLE("inner", { return {grad_input({2, 3}), grad_input({}, -1, 1, 2)}; });  // a 0-dim side
KILN_GRAD_SAMPLE("mv", { return {grad_input({2, 3}), grad_input({3}, -1, 1, 2)}; });
KILN_GRAD_SAMPLE("matmul", { return {grad_input({3}), grad_input({3}, -1, 1, 2)}; });
KILN_GRAD_SAMPLE("matmul", { return {grad_input({2, 3}), grad_input({3}, -1, 1, 2)}; });
KILN_GRAD_SAMPLE("matmul", { return {grad_input({3}), grad_input({3, 2}, -1, 1, 2)}; });
KILN_GRAD_SAMPLE("matmul", { return {grad_input({2, 2, 3}), grad_input({3, 2}, -1, 1, 2)}; });
KILN_GRAD_SAMPLE("matmul", { return {grad_input({2, 3}), grad_input({2, 3, 2}, -1, 1, 2)}; });
KILN_GRAD_SAMPLE("matmul", { return {grad_input({3}), grad_input({2, 3, 2}, -1, 1, 2)}; });
KILN_GRAD_SAMPLE("matmul", { return {grad_input({2, 1, 2, 3}), grad_input({3, 3, 2}, -1, 1, 2)}; });
KILN_GRAD_SAMPLE("matmul", { return {grad_input({1, 2, 3}), grad_input({2, 3, 2}, -1, 1, 2)}; });
KILN_GRAD_SAMPLE("linear", { return {grad_input({2, 3}), grad_input({4, 3}, -1, 1, 2)}; });
KILN_GRAD_SAMPLE("linear", {
  return {grad_input({2, 2, 3}), grad_input({4, 3}, -1, 1, 2), grad_input({4}, -1, 1, 3)};
});

}  // namespace
}  // namespace kiln

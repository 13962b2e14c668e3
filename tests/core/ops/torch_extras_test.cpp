// Tests for addmv, addr, addbmm (and their in-place forms), diag_embed,
// diagflat, masked_scatter, nanmedian, renorm, pdist, cov, corrcoef,
// combinations, chain_matmul, ldexp, frexp, gcd, lcm, the window functions,
// vander, the *_scatter functions, narrow_copy, empty_strided, is_nonzero,
// mvlgamma, i0, nextafter, unique_consecutive and histogram: closed forms,
// errors and gradient samples.
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
using testing::run_op;
using testing::T;

Tensor op(const char* name, std::vector<Value> args) { return run_op(name, std::move(args))[0]; }

const double kNaN = std::numeric_limits<double>::quiet_NaN();

TEST(Addmv, BetaAlphaAndErrors) {
  Tensor m = T({1, 2, 3, 4}, {2, 2}), v = T({1, -1});
  EXPECT_TRUE(Near(op("addmv", {T({10, 20}), m, v}), {9, 19}, {2}));
  EXPECT_TRUE(Near(op("addmv", {T({10, 20}), m, v, 0.5, 2}), {3, 8}, {2}));
  // beta == 0: self's NaN does not reach the result.
  EXPECT_TRUE(Near(op("addmv", {T({kNaN}), m, v, 0}), {-1, -1}, {2}));
  EXPECT_KILN_ERROR(op("addmv", {T({1, 2, 3}), m, v}), "size mismatch, got input (3), mat (2x2), vec (2)");
  EXPECT_KILN_ERROR(op("addmv", {T({1, 2}), m, m}), "vector + matrix @ vector expected, got 1, 2, 2");
  EXPECT_KILN_ERROR(op("addmv", {T({1, 2}), m, T({1, 2}, {2}, DType::Float64)}),
                    "addmv input tensors must have the same dtype, but got Float, Float, and Double");
}

TEST(Addmv, InPlaceWritesSelf) {
  Tensor self = T({1, 1});
  Tensor r = op("addmv_", {self, T({1, 2, 3, 4}, {2, 2}), T({1, 1})});
  EXPECT_EQ(r.storage(), self.storage());
  EXPECT_TRUE(Near(self, {4, 8}, {2}));
  EXPECT_KILN_ERROR(op("addmv_", {T({1}, {1}), T({1, 2, 3, 4}, {2, 2}), T({1, 1})}),
                    "Bad in-place call: input tensor size [1] and output tensor size [2] should match");
}

TEST(Addr, OuterProductDtypesAndErrors) {
  EXPECT_TRUE(Near(op("addr", {T({1}), T({1, 2}), T({3, 4}), 2, 3}), {11, 14, 20, 26}, {2, 2}));
  // Integer and mixed inputs promote; a float beta is refused for an integer result.
  Tensor ints = op("addr", {T({0, 0, 0, 0}, {2, 2}, DType::Int64), T({1, 2}, {2}, DType::Int64), T({3, 4}, {2}, DType::Int64)});
  EXPECT_EQ(ints.dtype(), DType::Int64);
  EXPECT_EQ(op("addr", {T({0}, {1}, DType::Int64), T({1, 2}), T({3, 4})}).dtype(), DType::Float32);
  EXPECT_KILN_ERROR(op("addr", {ints, T({1, 2}, {2}, DType::Int64), T({3, 4}, {2}, DType::Int64), 2.5}),
                    "For integral input tensors, argument beta must not be a floating point number.");
  EXPECT_KILN_ERROR(op("addr", {T({1}), T({1, 2}, {2, 1}), T({3, 4})}), "addr: Expected 1-D argument vec1, but got 2-D");
  EXPECT_KILN_ERROR(op("addr_", {T({1, 2}, {2, 1}), T({1, 2}), T({3, 4})}),
                    "size mismatch, input: [2, 1], v1: [2], v2: [2]");
}

TEST(Addbmm, SumsTheBatch) {
  Tensor b1 = T({1, 2, 3, 4}, {2, 1, 2}), b2 = T({1, 1, 2, 2}, {2, 2, 1});
  EXPECT_TRUE(Near(op("addbmm", {T({1}), b1, b2}), {1 + 3 + 14}, {1, 1}));
  EXPECT_TRUE(Near(op("addbmm", {T({5}), T({}, {0, 1, 2}), T({}, {0, 2, 1}), 2}), {10}, {1, 1}));
  EXPECT_KILN_ERROR(op("addbmm", {T({1}), b1, T({1, 1, 1, 1, 1, 1}, {3, 2, 1})}),
                    "batch1 and batch2 must have same number of batches, got 2 and 3");
  EXPECT_KILN_ERROR(op("addbmm", {T({1}), b1, T({1, 1, 1, 1, 1, 1}, {2, 3, 1})}),
                    "Incompatible matrix sizes for bmm (1x2 and 3x1)");
}

TEST(DiagEmbed, OffsetsAndDims) {
  EXPECT_TRUE(Near(op("diag_embed", {T({1, 2})}), {1, 0, 0, 2}, {2, 2}));
  EXPECT_TRUE(Near(op("diag_embed", {T({1, 2}), 1}), {0, 1, 0, 0, 0, 2, 0, 0, 0}, {3, 3}));
  EXPECT_TRUE(Near(op("diag_embed", {T({1, 2}), -1}), {0, 0, 0, 1, 0, 0, 0, 2, 0}, {3, 3}));
  // A batch [2, 2] put on dims 0 and 2: out[i, b, i] = x[b, i].
  EXPECT_TRUE(Near(op("diag_embed", {T({1, 2, 3, 4}, {2, 2}), 0, 0, 2}), {1, 0, 3, 0, 0, 2, 0, 4}, {2, 2, 2}));
  EXPECT_TRUE(Near(sum(op("diagflat", {T({1, 2, 3, 4}, {2, 2})})), {10}, {}));
  EXPECT_KILN_ERROR(op("diag_embed", {T({1, 2}), 0, 1, 1}), "diagonal dimensions cannot be identical 1, 1");
}

TEST(MaskedScatter, FillsTruesInOrder) {
  Tensor mask = T({1, 0, 1, 1}, {2, 2}, DType::Bool);
  EXPECT_TRUE(Near(op("masked_scatter", {T({0, 0, 0, 0}, {2, 2}), mask, T({7, 8, 9, 10})}), {7, 0, 8, 9}, {2, 2}));
  // The mask broadcasts against self.
  EXPECT_TRUE(Near(op("masked_scatter", {T({0, 0}, {1, 2}), T({1, 0}, {2, 1}, DType::Bool), T({5, 6})}),
                   {5, 6, 0, 0}, {2, 2}));
  EXPECT_KILN_ERROR(op("masked_scatter", {T({0, 0}), T({1, 1}, {2}, DType::Bool), T({5})}),
                    "Number of elements of source < number of ones in mask");
  EXPECT_KILN_ERROR(op("masked_scatter", {T({0, 0}), T({1, 1}), T({5, 6})}),
                    "masked_scatter_ only supports boolean masks, but got mask with dtype Float");
}

TEST(Nanmedian, IgnoresNaNs) {
  EXPECT_TRUE(Near(op("nanmedian", {T({3, kNaN, 1, 2, kNaN})}), {2}, {}));
  EXPECT_TRUE(Near(op("nanmedian", {T({4, kNaN, 1, 2})}), {2}, {}));  // the lower of the two middle values
  EXPECT_TRUE(std::isnan(op("nanmedian", {T({kNaN, kNaN})}).item_double()));
  std::vector<Tensor> r = run_op("nanmedian.dim", {T({1, kNaN, 3, 5, 4, kNaN}, {2, 3}), 1});
  EXPECT_TRUE(Near(r[0], {1, 4}, {2}));
  EXPECT_TRUE(Near(to_dtype(r[1], DType::Float32), {0, 1}, {2}));
  EXPECT_KILN_ERROR(op("nanmedian.dim", {zeros({0, 2}), 0}), "median(): Expected reduction dim 0 to have non-zero size.");
}

TEST(Renorm, ScalesRowsAboveTheMax) {
  // Row 0 has 2-norm 5 > 1 and is scaled to (nearly) 1; row 1 (norm 0.5) is kept.
  Tensor r = op("renorm", {T({3, 4, 0.3, 0.4}, {2, 2}), 2, 0, 1});
  EXPECT_TRUE(Near(r, {0.6, 0.8, 0.3, 0.4}, {2, 2}, 1e-6));
  EXPECT_KILN_ERROR(op("renorm", {T({1, 2}), 2, 0, 1}), "renorm: input needs at least 2 dimensions, got 1 dimensions");
  EXPECT_KILN_ERROR(op("renorm", {T({1, 2}, {1, 2}), 0, 0, 1}), "renorm: non-positive-norm not supported");
}

TEST(Pdist, RowPairsInOrder) {
  // Rows (0, 0), (3, 4), (6, 8): pairs (0,1), (0,2), (1,2).
  Tensor x = T({0, 0, 3, 4, 6, 8}, {3, 2});
  EXPECT_TRUE(Near(op("pdist", {x}), {5, 10, 5}, {3}));
  EXPECT_TRUE(Near(op("pdist", {x, 1.0}), {7, 14, 7}, {3}));
  EXPECT_TRUE(Near(op("pdist", {x, 0.0}), {2, 2, 2}, {3}));
  EXPECT_EQ(op("pdist", {T({1, 2}, {1, 2})}).numel(), 0);
  EXPECT_KILN_ERROR(op("pdist", {T({1, 2})}), "pdist only supports 2D tensors, got: 1D");
}

TEST(Cov, WeightsAndCorrection) {
  Tensor x = T({1, 2, 3, 2, 1, 0.5}, {2, 3});
  EXPECT_TRUE(Near(op("cov", {x}), {1, -0.75, -0.75, 7.0 / 12}, {2, 2}));
  EXPECT_TRUE(Near(op("cov", {T({1, 2, 3}), 0}), {2.0 / 3}, {}));
  // Frequency weights repeat observations: [1, 2, 2, 3] has variance 2/3.
  EXPECT_TRUE(Near(op("cov", {T({1, 2, 3}), 1, T({1, 2, 1}, {3}, DType::Int64)}), {2.0 / 3}, {}));
  EXPECT_TRUE(Near(op("corrcoef", {T({1, 2, 3, 3, 2, 1}, {2, 3})}), {1, -1, -1, 1}, {2, 2}));
  EXPECT_KILN_ERROR(op("cov", {x, 1, T({1, -2, 1}, {3}, DType::Int64)}), "cov(): fweights cannot be negative");
  EXPECT_KILN_ERROR(op("cov", {x, 1, Value(), T({0, 0, 0}, {3})}), "cov(): weights sum to zero, can't be normalized");
}

TEST(Combinations, Lexicographic) {
  EXPECT_TRUE(Near(op("combinations", {T({1, 2, 3})}), {1, 2, 1, 3, 2, 3}, {3, 2}));
  EXPECT_TRUE(Near(op("combinations", {T({1, 2}), 2, true}), {1, 1, 1, 2, 2, 2}, {3, 2}));
  EXPECT_EQ(op("combinations", {T({1, 2}), 3}).sizes(), Shape({0, 3}));
  EXPECT_KILN_ERROR(op("combinations", {T({1, 2}), -1}), "Expect a non-negative number, but got -1");
}

TEST(ChainMatmul, MatricesOnly) {
  Tensor a = T({1, 2, 3, 4}, {2, 2});
  EXPECT_TRUE(Near(op("chain_matmul", {std::vector<Tensor>{a, T({1, 0, 0, 1}, {2, 2}), T({1, 1}, {2, 1})}}), {3, 7},
                   {2, 1}));
  EXPECT_KILN_ERROR(op("chain_matmul", {std::vector<Tensor>{}}), "chain_matmul(): Expected one or more matrices");
  EXPECT_KILN_ERROR(op("chain_matmul", {std::vector<Tensor>{a, T({1, 2})}}), "Tensor dimension is 1, expected 2 instead.");
}

TEST(Frexp, MantissaAndExponent) {
  std::vector<Tensor> r = run_op("frexp.Tensor", {T({8, 0, -3, 0.75})});
  EXPECT_TRUE(Near(r[0], {0.5, 0, -0.75, 0.75}, {4}));
  EXPECT_EQ(r[1].dtype(), DType::Int32);
  EXPECT_TRUE(Near(to_dtype(r[1], DType::Float32), {4, 0, 2, 0}, {4}));
  EXPECT_TRUE(Near(op("ldexp.Tensor", {r[0], r[1]}), {8, 0, -3, 0.75}, {4}));
  EXPECT_KILN_ERROR(op("frexp.Tensor", {T({1}, {1}, DType::Int64)}), "torch.frexp() only supports floating-point dtypes");
}

TEST(GcdLcm, SignsAndZeros) {
  Tensor a = T({4, -6, 0, 0, 7}, {5}, DType::Int64), b = T({6, 4, 5, 0, -21}, {5}, DType::Int64);
  EXPECT_TRUE(Near(to_dtype(op("gcd", {a, b}), DType::Float32), {2, 2, 5, 0, 7}, {5}));
  EXPECT_TRUE(Near(to_dtype(op("lcm", {a, b}), DType::Float32), {12, 12, 0, 0, 21}, {5}));
  EXPECT_KILN_ERROR(op("gcd", {T({1}), T({2})}), "\"gcd_cpu\" not implemented for 'Float'");
}

TEST(Windows, ClosedForms) {
  EXPECT_TRUE(Near(op("hann_window", {int64_t(4)}), {0, 0.5, 1, 0.5}, {4}));
  EXPECT_TRUE(Near(op("hann_window", {int64_t(3), false}), {0, 1, 0}, {3}));
  EXPECT_TRUE(Near(op("hamming_window", {int64_t(3), false}), {0.08, 1, 0.08}, {3}));
  EXPECT_TRUE(Near(op("bartlett_window", {int64_t(5), false}), {0, 0.5, 1, 0.5, 0}, {5}));
  EXPECT_TRUE(Near(op("blackman_window", {int64_t(3), false}), {0, 1, 0}, {3}, 1e-6));
  // kaiser with beta = 0 is rectangular.
  EXPECT_TRUE(Near(op("kaiser_window", {int64_t(3), true, 0.0}), {1, 1, 1}, {3}));
  EXPECT_EQ(op("hann_window", {int64_t(0)}).numel(), 0);
  EXPECT_KILN_ERROR(op("bartlett_window", {int64_t(-2)}),
                    "bartlett_window requires non-negative window_length, got window_length=-2");
}

TEST(Vander, PowersAndErrors) {
  EXPECT_TRUE(Near(op("vander", {T({2, 3})}), {2, 1, 3, 1}, {2, 2}));
  EXPECT_TRUE(Near(op("vander", {T({2, 3}), int64_t(3), true}), {1, 2, 4, 1, 3, 9}, {2, 3}));
  EXPECT_EQ(op("vander", {T({2, 3}, {2}, DType::Int32)}).dtype(), DType::Int64);
  EXPECT_TRUE(Near(op("linalg_vander", {T({2, 3})}), {1, 2, 1, 3}, {2, 2}));
  EXPECT_KILN_ERROR(op("linalg_vander", {T({2, 3}), int64_t(1)}), "N must be greater than 1.");
}

TEST(ScatterViews, WriteOneView) {
  EXPECT_TRUE(Near(op("select_scatter", {zeros({2, 2}), T({5, 6}), 1, 0}), {5, 0, 6, 0}, {2, 2}));
  EXPECT_TRUE(Near(op("slice_scatter", {zeros({4}), T({1, 2}), 0, 0, Value(), 2}), {1, 0, 2, 0}, {4}));
  EXPECT_TRUE(Near(op("diagonal_scatter", {zeros({2, 2}), T({1, 2})}), {1, 0, 0, 2}, {2, 2}));
  EXPECT_KILN_ERROR(op("diagonal_scatter", {zeros({2, 2}), T({1, 2, 3})}),
                    "expected src to have a size equal to the slice of self. src size = [3], slice size = [2]");
  EXPECT_TRUE(Near(op("narrow_copy", {T({1, 2, 3, 4}), 0, 1, 2}), {2, 3}, {2}));
  Tensor e = op("empty_strided", {Shape{2, 3}, Shape{1, 2}});
  EXPECT_EQ(e.strides(), Shape({1, 2}));
  EXPECT_KILN_ERROR(op("is_nonzero", {T({1, 2})}), "Boolean value of Tensor with more than one value is ambiguous");
}

TEST(SpecialFunctions, Mvlgamma_I0_Nextafter) {
  // mvlgamma with p = 1 is lgamma; I0(0) = 1, I0(1) = 1.2660658777520082.
  EXPECT_TRUE(Near(op("mvlgamma", {T({3, 4}), 1}), {std::log(2.0), std::log(6.0)}, {2}));
  EXPECT_TRUE(Near(op("i0", {T({0, 1, -1}, {3}, DType::Float64)}), {1, 1.2660658777520082, 1.2660658777520082}, {3},
                   1e-14));
  EXPECT_TRUE(Near(op("special_i1", {T({1}, {1}, DType::Float64)}), {0.5651591039924851}, {1}, 1e-14));
  EXPECT_EQ(op("nextafter", {T({1}, {1}, DType::Float64), T({2}, {1}, DType::Float64)}).item_double(),
            std::nextafter(1.0, 2.0));
  EXPECT_KILN_ERROR(op("nextafter", {T({1}, {1}, DType::Int64), T({2}, {1}, DType::Int64)}),
                    "\"nextafter_cpu\" not implemented for 'Long'");
}

TEST(UniqueConsecutive, RunsAndCounts) {
  std::vector<Tensor> r = run_op("unique_consecutive", {T({1, 1, 2, 1}, {4}, DType::Int64)});
  EXPECT_TRUE(Near(to_dtype(r[0], DType::Float32), {1, 2, 1}, {3}));
  EXPECT_TRUE(Near(to_dtype(r[1], DType::Float32), {0, 0, 1, 2}, {4}));
  EXPECT_TRUE(Near(to_dtype(r[2], DType::Float32), {2, 1, 1}, {3}));
  // Along a dim, whole slices compare.
  std::vector<Tensor> d = run_op("unique_consecutive", {T({1, 1, 1, 1, 2, 3}, {3, 2}), false, false, int64_t(0)});
  EXPECT_TRUE(Near(d[0], {1, 1, 2, 3}, {2, 2}));
}

TEST(Histogram, BinsAndEdges) {
  std::vector<Tensor> h = run_op("histogram.bin_ct", {T({1, 2, 1, 4}), int64_t(3)});
  EXPECT_TRUE(Near(h[0], {2, 1, 1}, {3}));
  EXPECT_TRUE(Near(h[1], {1, 2, 3, 4}, {4}));
  // Explicit edges: the last bin is closed, values outside are dropped; weights sum.
  std::vector<Tensor> e = run_op("histogram.bins_tensor", {T({0, 1, 2, 3}), T({1, 2, 3}), T({5, 1, 2, 4})});
  EXPECT_TRUE(Near(e[0], {1, 6}, {2}));
  EXPECT_KILN_ERROR(run_op("histogram.bin_ct", {T({1, 2}), int64_t(2), 2.0, 1.0}),
                    "torch.histogramdd: min should not exceed max, but got min 2 max 1 for dimension 0");
}

Tensor bool_mask(std::vector<double> v, Shape s) { return T(std::move(v), std::move(s), DType::Bool); }

KILN_GRAD_SAMPLE("addmv", { return {grad_input({3}), grad_input({3, 2}, -1, 1, 2), grad_input({2}, -1, 1, 3), 0.5, 2}; });
KILN_GRAD_SAMPLE("addmv", { return {grad_input({1}), grad_input({3, 2}, -1, 1, 2), grad_input({2}, -1, 1, 3)}; });
KILN_GRAD_SAMPLE("addr", { return {grad_input({3, 1}), grad_input({3}, -1, 1, 2), grad_input({2}, -1, 1, 3), 2, -1}; });
KILN_GRAD_SAMPLE("addbmm",
                 { return {grad_input({2}), grad_input({3, 2, 4}, -1, 1, 2), grad_input({3, 4, 2}, -1, 1, 3), 1.5, 0.5}; });
KILN_GRAD_SAMPLE("diag_embed", { return {grad_input({2, 3}), 1, 0, 2}; });
KILN_GRAD_SAMPLE("diagflat", { return {grad_input({2, 2}), -1}; });
KILN_GRAD_SAMPLE("masked_scatter",
                 { return {grad_input({2, 3}), bool_mask({1, 0, 1}, {3}), grad_input({5}, -1, 1, 2)}; });
KILN_GRAD_SAMPLE("nanmedian", { return {grad_input({3, 3})}; });
KILN_GRAD_SAMPLE("nanmedian.dim", { return {grad_input({3, 4}), 1, true}; });
KILN_GRAD_SAMPLE("nanmedian.dim", { return {grad_input({3, 4}), 0}; });
KILN_GRAD_SAMPLE("renorm", { return {grad_input({3, 4}, -2, 2), 2, 0, 1.0}; });
KILN_GRAD_SAMPLE("renorm", { return {grad_input({2, 3}, -2, 2), 1, 1, 1.5}; });
KILN_GRAD_SAMPLE("pdist", { return {grad_input({4, 3}), 2.0}; });
KILN_GRAD_SAMPLE("pdist", { return {grad_input({3, 2}), 3.0}; });
KILN_GRAD_SAMPLE("cov", { return {grad_input({2, 4})}; });
KILN_GRAD_SAMPLE("cov", {
  return {grad_input({3, 4}), 0, T({1, 2, 1, 3}, {4}, DType::Int64), T({0.5, 1, 2, 1}, {4}, DType::Float64)};
});
KILN_GRAD_SAMPLE("corrcoef", { return {grad_input({3, 4})}; });
KILN_GRAD_SAMPLE("combinations", { return {grad_input({4}), 2, true}; });
KILN_GRAD_SAMPLE("chain_matmul",
                 { return {std::vector<Tensor>{grad_input({2, 3}), grad_input({3, 3}, -1, 1, 2), grad_input({3, 1}, -1, 1, 3)}}; });
KILN_GRAD_SAMPLE("ldexp.Tensor", { return {grad_input({3}), grad_input({3}, -2, 2, 2)}; });
KILN_GRAD_SAMPLE("frexp.Tensor", { return {grad_input({2, 3}, -4, 4)}; });
KILN_GRAD_SAMPLE("vander", { return {grad_input({3}), 4}; });
KILN_GRAD_SAMPLE("vander", { return {grad_input({2}), 3, true}; });
KILN_GRAD_SAMPLE("linalg_vander", { return {grad_input({2, 3})}; });
KILN_GRAD_SAMPLE("select_scatter", { return {grad_input({3, 4}), grad_input({3}, -1, 1, 2), 1, 2}; });
KILN_GRAD_SAMPLE("slice_scatter", { return {grad_input({4, 3}), grad_input({2, 3}, -1, 1, 2), 0, 1, Value(), 2}; });
KILN_GRAD_SAMPLE("diagonal_scatter", { return {grad_input({3, 4}), grad_input({3}, -1, 1, 2), 1}; });
KILN_GRAD_SAMPLE("narrow_copy", { return {grad_input({3, 4}), 1, 1, 2}; });
KILN_GRAD_SAMPLE("mvlgamma", { return {grad_input({3}, 2, 4), 3}; });
KILN_GRAD_SAMPLE("i0", { return {grad_input({5}, -3, 3)}; });
KILN_GRAD_SAMPLE("unique_consecutive", { return {grad_input({5})}; });

}  // namespace
}  // namespace kiln

// Tests for the combining composites (broadcast_*, meshgrid, kron, tensordot,
// cross, block_diag, stacks, rot90, logspace, tri indices), the index reads
// and fills (take, take_along_dim, index_fill, scatter): values against
// PyTorch, dtypes, negative dims, non-contiguous inputs, PyTorch's errors, and
// gradient samples.
#include <cmath>

#include "core/dispatch.h"
#include "core/ops.h"
#include "tests/core/gradcheck.h"
#include "tests/core/test_util.h"

namespace kiln {
namespace {
using testing::grad_input;
using testing::Near;
using testing::seq;
using testing::T;

Tensor op(const char* name, std::vector<Value> args) { return call_op(name, args)[0]; }
std::vector<Tensor> ops(const char* name, std::vector<Value> args) { return call_op(name, args); }
Tensor I(std::vector<double> v, Shape shape = {}) { return T(std::move(v), std::move(shape), DType::Int64); }
const double kNan = std::nan("");

TEST(Combine, Broadcasting) {
  Tensor x = T({1, 2, 3});
  Tensor b = op("broadcast_to", {x, Shape{2, 3}});
  EXPECT_TRUE(Near(b, {1, 2, 3, 1, 2, 3}, {2, 3}));
  EXPECT_EQ(b.strides()[0], 0);  // a view, as expand
  auto bt = ops("broadcast_tensors", {std::vector<Tensor>{x, seq({2, 1}), T({5})}});
  ASSERT_EQ(bt.size(), 3u);
  for (const Tensor& t : bt) EXPECT_EQ(t.sizes(), (Shape{2, 3}));
  EXPECT_TRUE(Near(bt[1], {0, 0, 0, 1, 1, 1}, {2, 3}));
  EXPECT_KILN_ERROR(op("broadcast_to", {x, Shape{2, 4}}), "");
  EXPECT_KILN_ERROR(ops("broadcast_tensors", {std::vector<Tensor>{x, T({1, 2})}}),
                    "The size of tensor a (3) must match the size of tensor b (2) at non-singleton dimension 0");
}

TEST(Combine, MeshgridCartesianProd) {
  Tensor a = I({1, 2}), b = I({3, 4, 5});
  auto ij = ops("meshgrid", {std::vector<Tensor>{a, b}});
  EXPECT_TRUE(Near(ij[0], {1, 1, 1, 2, 2, 2}, {2, 3}));
  EXPECT_TRUE(Near(ij[1], {3, 4, 5, 3, 4, 5}, {2, 3}));
  EXPECT_EQ(ij[0].dtype(), DType::Int64);
  auto xy = call_op("meshgrid", std::vector<Value>{std::vector<Tensor>{a, b}}, {{"indexing", "xy"}});
  EXPECT_TRUE(Near(xy[0], {1, 2, 1, 2, 1, 2}, {3, 2}));
  EXPECT_TRUE(Near(xy[1], {3, 3, 4, 4, 5, 5}, {3, 2}));
  EXPECT_TRUE(Near(op("cartesian_prod", {std::vector<Tensor>{a, b}}), {1, 3, 1, 4, 1, 5, 2, 3, 2, 4, 2, 5}, {6, 2}));
  EXPECT_KILN_ERROR(call_op("meshgrid", std::vector<Value>{std::vector<Tensor>{a}}, {{"indexing", "yx"}}),
                    "torch.meshgrid: indexing must be one of \"xy\" or \"ij\", but received: yx");
  EXPECT_KILN_ERROR(ops("meshgrid", {std::vector<Tensor>{a, T({1})}}),
                    "meshgrid expects all tensors to have the same dtype");
  EXPECT_KILN_ERROR(op("cartesian_prod", {std::vector<Tensor>{seq({2, 2})}}), "Expect a 1D vector, but got shape [2, 2]");
}

TEST(Combine, KronTensordotCross) {
  EXPECT_TRUE(Near(op("kron", {T({1, 2, 3, 4}, {2, 2}), T({1, 10})}), {1, 10, 2, 20, 3, 30, 4, 40}, {2, 4}));
  EXPECT_EQ(op("kron", {seq({2, 3}, DType::Int64), I({1, 2})}).dtype(), DType::Int64);
  Tensor a = seq({2, 3, 4}), b = seq({4, 3});
  EXPECT_TRUE(Near(op("tensordot", {a, b, Shape{1, 2}, Shape{1, 0}}), {440, 1232}, {2}));
  EXPECT_TRUE(Near(op("tensordot", {a, b, Shape{-2, -1}, Shape{-1, 0}}), {440, 1232}, {2}));
  EXPECT_TRUE(Near(op("tensordot", {seq({2, 3}), t(seq({2, 3})), Shape{1}, Shape{0}}), {5, 14, 14, 50}, {2, 2}));
  EXPECT_KILN_ERROR(op("tensordot", {a, b, Shape{1}, Shape{1, 0}}), "both dimension lists should have same length");
  EXPECT_KILN_ERROR(op("tensordot", {a, b, Shape{1}, Shape{0}}),
                    "contracted dimensions need to match, but first has size 3 in dim 1 and second has size 4 in dim 0");
  Tensor x = T({1, 0, 0, 0, 1, 0}, {2, 3}), y = T({0, 1, 0, 0, 0, 1}, {2, 3});
  EXPECT_TRUE(Near(op("cross", {x, y}), {0, 0, 1, 1, 0, 0}, {2, 3}));  // the first dim of size 3
  EXPECT_TRUE(Near(call_op("linalg_cross", std::vector<Value>{t(x), t(y)}, {{"dim", 0}})[0], {0, 1, 0, 0, 1, 0}, {3, 2}));
  EXPECT_TRUE(Near(op("linalg_cross", {x, T({0, 1, 0}, {1, 3})}), {0, 0, 1, 0, 0, 0}, {2, 3}));  // broadcast
  EXPECT_KILN_ERROR(call_op("linalg_cross", std::vector<Value>{x, y}, {{"dim", 0}}), "linalg.cross: inputs dimension 0 must have length 3. Got 2 and 2");
  EXPECT_KILN_ERROR(op("linalg_cross", {x, T({0, 1, 0})}), "linalg.cross: inputs must have the same number of dimensions.");
  EXPECT_KILN_ERROR(op("cross", {seq({2, 2}), seq({2, 2})}), "no dimension of size 3 in input");
}

TEST(Combine, BlockDiagStacksRot90) {
  Tensor bd = op("block_diag", {std::vector<Tensor>{I({1, 2}, {1, 2}), T({3}, {}), I({4, 5})}});
  EXPECT_EQ(bd.dtype(), DType::Float32);
  EXPECT_TRUE(Near(bd, {1, 2, 0, 0, 0, 0, 0, 3, 0, 0, 0, 0, 0, 4, 5}, {3, 5}));
  EXPECT_EQ(op("block_diag", {std::vector<Tensor>{}}).sizes(), (Shape{1, 0}));
  EXPECT_KILN_ERROR(op("block_diag", {std::vector<Tensor>{seq({2}), seq({1, 1, 1})}}),
                    "torch.block_diag: Input tensors must have 2 or fewer dimensions. Input 1 has 3 dimensions");
  EXPECT_EQ(op("atleast_1d", {T({1}, {})}).sizes(), (Shape{1}));
  EXPECT_EQ(op("atleast_2d", {seq({3})}).sizes(), (Shape{1, 3}));
  EXPECT_EQ(op("atleast_3d", {seq({3})}).sizes(), (Shape{1, 3, 1}));
  EXPECT_EQ(op("atleast_3d", {seq({2, 3})}).sizes(), (Shape{2, 3, 1}));
  auto seqs = ops("atleast_2d.Sequence", {std::vector<Tensor>{T({1}, {}), seq({2, 2, 2})}});
  EXPECT_EQ(seqs[0].sizes(), (Shape{1, 1}));
  EXPECT_EQ(seqs[1].sizes(), (Shape{2, 2, 2}));
  EXPECT_TRUE(Near(op("column_stack", {std::vector<Tensor>{I({1, 2}), I({3, 4, 5, 6}, {2, 2})}}), {1, 3, 4, 2, 5, 6}, {2, 3}));
  EXPECT_TRUE(Near(op("dstack", {std::vector<Tensor>{I({1, 2}), I({3, 4})}}), {1, 3, 2, 4}, {1, 2, 2}));
  EXPECT_TRUE(Near(op("row_stack", {std::vector<Tensor>{I({1, 2}), I({3, 4})}}), {1, 2, 3, 4}, {2, 2}));
  EXPECT_KILN_ERROR(op("column_stack", {std::vector<Tensor>{}}), "column_stack expects a non-empty TensorList");
  Tensor x = seq({2, 3});
  EXPECT_TRUE(Near(op("rot90", {x}), {2, 5, 1, 4, 0, 3}, {3, 2}));
  EXPECT_TRUE(Near(op("rot90", {x, -1, Shape{0, 1}}), {3, 0, 4, 1, 5, 2}, {3, 2}));
  EXPECT_TRUE(Near(op("rot90", {x, 2, Shape{1, 0}}), {5, 4, 3, 2, 1, 0}, {2, 3}));
  EXPECT_TRUE(Near(op("rot90", {t(x), 4, Shape{-1, 0}}), {0, 3, 1, 4, 2, 5}, {3, 2}));  // non-contiguous
  EXPECT_KILN_ERROR(op("rot90", {x, 1, Shape{0, 0}}), "expected rotation dims to be different, but got dim0 = 0 and dim1 = 0");
  EXPECT_KILN_ERROR(op("rot90", {seq({3}), 1}), "expected total dims >= 2, but got total dims = 1");
  EXPECT_KILN_ERROR(op("rot90", {x, 1, Shape{0, 3}}), "Rotation dim1 out of range, dim1 = 3");
}

TEST(Combine, Factories) {
  EXPECT_TRUE(Near(op("logspace", {0, 2, 3}), {1, 10, 100}, {3}));
  Tensor l = call_op("logspace", std::vector<Value>{0, 3, 4}, {{"base", 2.0}, {"dtype", DType::Float64}})[0];
  EXPECT_EQ(l.dtype(), DType::Float64);
  EXPECT_TRUE(Near(l, {1, 2, 4, 8}, {4}));
  Tensor li = op("tril_indices", {3, 3});
  EXPECT_EQ(li.dtype(), DType::Int64);
  EXPECT_TRUE(Near(li, {0, 1, 1, 2, 2, 2, 0, 0, 1, 0, 1, 2}, {2, 6}));
  EXPECT_TRUE(Near(op("triu_indices", {3, 4, 1}), {0, 0, 0, 1, 1, 2, 1, 2, 3, 2, 3, 3}, {2, 6}));
  EXPECT_TRUE(Near(op("tril_indices", {4, 3, -1}), {1, 2, 2, 3, 3, 3, 0, 0, 1, 0, 1, 2}, {2, 6}));
  EXPECT_EQ(op("triu_indices", {0, 3}).sizes(), (Shape{2, 0}));
  EXPECT_EQ(op("tril_indices", {3, 4, 5}).sizes(), (Shape{2, 12}));
  EXPECT_EQ(op("triu_indices", {3, 3, -5}).sizes(), (Shape{2, 9}));
  EXPECT_EQ(op("tril_indices", {2, 2, -5}).sizes(), (Shape{2, 0}));
  EXPECT_TRUE(Near(op("triu_indices", {4, 2, -1}), {0, 0, 1, 1, 2, 0, 1, 0, 1, 1}, {2, 5}));
  Tensor ti = call_op("triu_indices", std::vector<Value>{2, 3, 1}, {{"dtype", DType::Int32}})[0];
  EXPECT_EQ(ti.dtype(), DType::Int32);
  EXPECT_TRUE(Near(ti, {0, 0, 1, 1, 2, 2}, {2, 3}));
  EXPECT_KILN_ERROR(op("tril_indices", {-1, 3}), "row must be non-negative, got-1");
}

TEST(Take, TakeAndTakeAlongDim) {
  Tensor x = seq({2, 3});
  EXPECT_TRUE(Near(op("take", {x, I({0, -1, 4, 2}, {2, 2})}), {0, 5, 4, 2}, {2, 2}));
  EXPECT_TRUE(Near(op("take", {t(x), I({1, 2})}), {3, 1}, {2}));  // non-contiguous: row-major of the view
  EXPECT_KILN_ERROR(op("take", {x, I({6})}), "out of range: tried to access index 6 on a tensor of 6 elements.");
  EXPECT_KILN_ERROR(op("take", {x, T({1}, {1}, DType::Int32)}), "take(): Expected a long tensor for index, but got Int");
  EXPECT_TRUE(Near(op("take_along_dim", {x, I({2, 0}, {2, 1}), 1}), {2, 3}, {2, 1}));
  EXPECT_TRUE(Near(op("take_along_dim", {x, I({0, 1, 0}, {1, 3}), -2}), {0, 4, 2}, {1, 3}));
  EXPECT_TRUE(Near(op("take_along_dim", {x, I({1, 0}, {2, 1}), 0}), {3, 4, 5, 0, 1, 2}, {2, 3}));  // broadcast
  EXPECT_TRUE(Near(op("take_along_dim", {x, I({5, 0})}), {5, 0}, {2}));
  EXPECT_KILN_ERROR(op("take_along_dim", {x, I({0}, {1}), 0}),
                    "torch.take_along_dim(): input and indices should have the same number of dimensions, but got 2 "
                    "dimensions for input, and 1 dimensions for indices");
}

TEST(Take, IndexFill) {
  Tensor x = seq({2, 3});
  EXPECT_TRUE(Near(op("index_fill", {x, 1, I({0, -1}), -1.0}), {-1, 1, -1, -1, 4, -1}, {2, 3}));
  EXPECT_TRUE(Near(op("index_fill", {x, -2, I({1}), T({7}, {})}), {0, 1, 2, 7, 7, 7}, {2, 3}));
  Tensor xi = seq({2, 3}, DType::Int64);
  Tensor fi = op("index_fill", {xi, 0, I({0}), 2.7});
  EXPECT_EQ(fi.dtype(), DType::Int64);
  EXPECT_TRUE(Near(fi, {2, 2, 2, 3, 4, 5}, {2, 3}));
  Tensor y = clone(x);
  ops("index_fill_", {y, 1, I({1}), 9.0});
  EXPECT_TRUE(Near(y, {0, 9, 2, 3, 9, 5}, {2, 3}));
  EXPECT_KILN_ERROR(op("index_fill", {x, 1, I({3}), 1.0}), "index 3 is out of bounds for dimension 1 with size 3");
  EXPECT_KILN_ERROR(op("index_fill", {x, 1, T({0}), 1.0}), "index_fill_(): Expected dtype int64 for index.");
  EXPECT_KILN_ERROR(op("index_fill", {x, 1, I({0}), T({1, 2})}),
                    "index_fill_ only supports a 0-dimensional value tensor, but got tensor with 1 dimension(s).");
}

TEST(Take, Scatter) {
  Tensor s = op("scatter", {zeros({3, 4}), 1, I({2, 0, 3}, {3, 1}), T({1, 2, 3}, {3, 1})});
  EXPECT_TRUE(Near(s, {0, 0, 1, 0, 2, 0, 0, 0, 0, 0, 0, 3}, {3, 4}));
  EXPECT_TRUE(Near(op("scatter", {zeros({2, 3}), 0, I({1, 0, 1}, {1, 3}), 5.0}), {0, 5, 0, 5, 0, 5}, {2, 3}));
  Tensor si = call_op("scatter", std::vector<Value>{zeros({2, 2}, DType::Int64), -1, I({1, 0}, {2, 1})},
                      {{"value", 3}})[0];
  EXPECT_EQ(si.dtype(), DType::Int64);
  EXPECT_TRUE(Near(si, {0, 3, 3, 0}, {2, 2}));
  // duplicates: the last write wins, as PyTorch's CPU kernel
  EXPECT_TRUE(Near(op("scatter", {zeros({3}), 0, I({1, 1}), T({4, 6})}), {0, 6, 0}, {3}));
  // src larger than index, and non-contiguous
  EXPECT_TRUE(Near(op("scatter", {zeros({2, 2}), 0, I({1}, {1, 1}), t(seq({3, 3}))}), {0, 0, 0, 0}, {2, 2}));
  Tensor y = zeros({2, 2});
  ops("scatter_", {y, 1, I({1, 0}, {2, 1}), T({8, 9}, {2, 1})});
  EXPECT_TRUE(Near(y, {0, 8, 9, 0}, {2, 2}));
  EXPECT_KILN_ERROR(op("scatter", {zeros({2}), 0, I({2}), T({1})}), "index 2 is out of bounds for dimension 0 with size 2");
  EXPECT_KILN_ERROR(op("scatter", {zeros({2}), 0, I({1}), T({1}, {1}, DType::Float64)}),
                    "scatter(): Expected self.dtype to be equal to src.dtype");
}

TEST(Take, ScatterReduce) {
  Tensor x = T({1, 2, 3, 4, 5, 6, 7, 8}, {2, 4}), idx = I({0, 1, 0, 1, 2, 2, 3, 0}, {2, 4});
  Tensor src = T({10, 20, 30, 40, 2, 0.5, 3, kNan}, {2, 4});
  auto reduce = [&](const char* r, bool include_self) {
    return call_op("scatter_reduce", std::vector<Value>{x, 1, idx, src, r}, {{"include_self", include_self}})[0];
  };
  EXPECT_TRUE(Near(reduce("sum", true), {41, 62, 3, 4, kNan, 6, 9.5, 11}, {2, 4}));
  EXPECT_TRUE(Near(reduce("prod", false), {300, 800, 3, 4, kNan, 6, 1, 3}, {2, 4}));
  EXPECT_TRUE(Near(reduce("mean", true), {41 / 3.0, 62 / 3.0, 3, 4, kNan, 6, 9.5 / 3, 5.5}, {2, 4}));
  EXPECT_TRUE(Near(reduce("amax", true), {30, 40, 3, 4, kNan, 6, 7, 8}, {2, 4}));  // NaN wins
  EXPECT_TRUE(Near(reduce("min", false), {10, 20, 3, 4, kNan, 6, 0.5, 3}, {2, 4}));
  Tensor xi = seq({2, 3}, DType::Int64);
  Tensor mi = ops("scatter_reduce", {xi, 0, I({1, 1, 0}, {1, 3}), I({-7, 2, 3}, {1, 3}), "mean"})[0];
  EXPECT_TRUE(Near(mi, {0, 1, 2, -2, 3, 5}, {2, 3}));  // the integer mean rounds down
  Tensor y = clone(x);
  ops("scatter_reduce_", {y, 1, idx, src, "sum"});
  EXPECT_TRUE(Near(y, {41, 62, 3, 4, kNan, 6, 9.5, 11}, {2, 4}));
  EXPECT_KILN_ERROR(reduce("median", true), "reduce argument must be either sum, prod, mean, amax or amin, got median");
  EXPECT_KILN_ERROR(ops("scatter_reduce", {x, 1, idx, I({1}, {1, 1}), "sum"}),
                    "scatter(): Expected self.dtype to be equal to src.dtype");
}

TEST(Take, InplaceFormsCheckLeaves) {
  Tensor leaf = grad_input({2, 2});
  EXPECT_KILN_ERROR(ops("index_fill_", {leaf, 0, I({0}), 1.0}), "a leaf Variable that requires grad");
  EXPECT_KILN_ERROR(ops("scatter_", {leaf, 0, I({0}, {1, 1}), 1.0}), "a leaf Variable that requires grad");
}

KILN_GRAD_SAMPLE("broadcast_to", { return {grad_input({3, 1}), Shape{2, 3, 2}}; });
KILN_GRAD_SAMPLE("broadcast_tensors", { return {std::vector<Tensor>{grad_input({3, 1}), grad_input({2}, -1, 1, 2)}}; });
KILN_GRAD_SAMPLE("meshgrid", { return {std::vector<Tensor>{grad_input({2}), grad_input({3}, -1, 1, 2)}, "xy"}; });
KILN_GRAD_SAMPLE("cartesian_prod", { return {std::vector<Tensor>{grad_input({2}), grad_input({3}, -1, 1, 2)}}; });
KILN_GRAD_SAMPLE("kron", { return {grad_input({2, 2}), grad_input({3}, -1, 1, 2)}; });
KILN_GRAD_SAMPLE("tensordot", { return {grad_input({2, 3, 2}), grad_input({2, 3}, -1, 1, 2), Shape{0, 1}, Shape{0, 1}}; });
KILN_GRAD_SAMPLE("cross", { return {grad_input({2, 3}), grad_input({2, 3}, -1, 1, 2)}; });
KILN_GRAD_SAMPLE("linalg_cross", { return {grad_input({3, 2}), grad_input({3, 2}, -1, 1, 2), 0}; });
KILN_GRAD_SAMPLE("block_diag", { return {std::vector<Tensor>{grad_input({2, 2}), grad_input({3}, -1, 1, 2)}}; });
KILN_GRAD_SAMPLE("atleast_1d", { return {grad_input({})}; });
KILN_GRAD_SAMPLE("atleast_2d", { return {grad_input({3})}; });
KILN_GRAD_SAMPLE("atleast_3d", { return {grad_input({2, 2})}; });
KILN_GRAD_SAMPLE("atleast_1d.Sequence", { return {std::vector<Tensor>{grad_input({}), grad_input({2})}}; });
KILN_GRAD_SAMPLE("atleast_2d.Sequence", { return {std::vector<Tensor>{grad_input({}), grad_input({2})}}; });
KILN_GRAD_SAMPLE("atleast_3d.Sequence", { return {std::vector<Tensor>{grad_input({2}), grad_input({2, 2})}}; });
KILN_GRAD_SAMPLE("column_stack", { return {std::vector<Tensor>{grad_input({2}), grad_input({2, 2}, -1, 1, 2)}}; });
KILN_GRAD_SAMPLE("dstack", { return {std::vector<Tensor>{grad_input({2}), grad_input({1, 2, 2}, -1, 1, 2)}}; });
KILN_GRAD_SAMPLE("row_stack", { return {std::vector<Tensor>{grad_input({2}), grad_input({2, 2}, -1, 1, 2)}}; });
KILN_GRAD_SAMPLE("rot90", { return {grad_input({2, 3, 2}), 3, Shape{-1, 0}}; });
KILN_GRAD_SAMPLE("fliplr", { return {grad_input({2, 3})}; });
KILN_GRAD_SAMPLE("flipud", { return {grad_input({3, 2})}; });
KILN_GRAD_SAMPLE("take", { return {grad_input({2, 3}), T({5, -6, 5}, {3}, DType::Int64)}; });
KILN_GRAD_SAMPLE("take_along_dim", { return {grad_input({2, 3}), T({2, 0}, {2, 1}, DType::Int64), 1}; });
KILN_GRAD_SAMPLE("index_fill.int_Tensor", {
  return {grad_input({2, 3}), 1, T({0, 2}, {2}, DType::Int64), grad_input({}, -1, 1, 2)};
});
KILN_GRAD_SAMPLE("index_fill.int_Scalar", { return {grad_input({2, 3}), 0, T({1}, {1}, DType::Int64), 2.0}; });
KILN_GRAD_SAMPLE("scatter.src", {
  return {grad_input({3, 4}), 1, T({2, 0, 3}, {3, 1}, DType::Int64), grad_input({3, 2}, -1, 1, 2)};
});
KILN_GRAD_SAMPLE("scatter.value", { return {grad_input({2, 3}), 0, T({1, 0}, {1, 2}, DType::Int64), 4.0}; });
KILN_GRAD_SAMPLE("scatter.reduce", {
  return {grad_input({3, 4}), 1, T({2, 0, 3}, {3, 1}, DType::Int64), grad_input({3, 2}, -1, 1, 2), "add"};
});
KILN_GRAD_SAMPLE("scatter.value_reduce", {
  return {grad_input({2, 3}), 0, T({1, 0}, {1, 2}, DType::Int64), 4.0, "multiply"};
});
// Distinct values, so no small change moves an amax/amin; a zero in src for prod's exact rule.
KILN_GRAD_SAMPLE("scatter_reduce.two", {
  return {grad_input({3, 4}), 0, T({0, 1, 0, 2, 2, 2}, {2, 3}, DType::Int64), grad_input({2, 3}, -1, 1, 2), "sum", false};
});
KILN_GRAD_SAMPLE("scatter_reduce.two", {
  return {grad_input({3, 4}), 0, T({0, 1, 0, 2, 2, 2}, {2, 3}, DType::Int64), grad_input({2, 4}, -1, 1, 2), "mean", true};
});
KILN_GRAD_SAMPLE("scatter_reduce.two", {
  return {grad_input({3, 4}), 0, T({0, 1, 0, 2, 2, 2}, {2, 3}, DType::Int64), grad_input({2, 3}, -1, 1, 2), "amax", true};
});
KILN_GRAD_SAMPLE("scatter_reduce.two", {
  return {grad_input({3, 4}), 1, T({0, 0, 3, 1, 1, 1}, {3, 2}, DType::Int64), grad_input({3, 2}, -1, 1, 2), "amin", false};
});
KILN_GRAD_SAMPLE("scatter_reduce.two", {
  Tensor src = T({1.5, 0, -2, 0.5, 0, 0.25}, {2, 3}, DType::Float64);
  src.requires_grad_(true);
  return {grad_input({3, 4}), 0, T({0, 1, 0, 2, 2, 2}, {2, 3}, DType::Int64), src, "prod", true};
});

// index_reduce: source's rows reduced into self's rows index[i] (scatter_reduce underneath).
KILN_GRAD_SAMPLE("index_reduce", {
  return {grad_input({3, 4}), 0, T({0, 2, 0}, {3}, DType::Int64), grad_input({3, 4}, -1, 1, 2), "mean", true};
});
KILN_GRAD_SAMPLE("index_reduce", {
  return {grad_input({3, 4}), 1, T({3, 1}, {2}, DType::Int64), grad_input({3, 2}, -1, 1, 2), "amax", false};
});

}  // namespace
}  // namespace kiln

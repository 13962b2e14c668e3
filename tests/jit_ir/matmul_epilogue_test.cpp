// Matmul epilogues (jit/matmul_epilogue.h): the graph before, the plan after,
// and the product run with its epilogue against the separate kernels.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "core/ops.h"
#include "jit/fusion.h"
#include "jit/matmul_epilogue.h"
#include "tests/jit_ir/pending_ops.h"

namespace kiln::jit {
namespace {

using lazy::PendingOp;

Tensor t(Shape sizes) { return empty_tensor(sizes, DType::Float32); }

// The outputs of these nodes are observable after the graph.
std::vector<bool> live_only(const Graph& g, std::initializer_list<int> nodes) {
  std::vector<bool> live(g.values.size(), false);
  for (int n : nodes) live[size_t(g.nodes[size_t(n)].outs[0])] = true;
  return live;
}

// A linear layer with relu: x @ W.t() + b, relu. Above oneDNN's size threshold.
struct Layer {
  Tensor x = randn({64, 96}), w = randn({128, 96}), b = randn({128}), residual = randn({64, 128});
  Tensor y = t({64, 128}), z = t({64, 128}), r = t({64, 128});
  std::vector<PendingOp> ops() const {
    return {pending("mm", {x, transpose(w, 0, 1)}, {y}), pending("add", {y, b, 1.0}, {z}), pending("relu", {z}, {r})};
  }
};

TEST(MatmulEpilogue, BiasAndReluRunInTheProductsOutputPass) {
  Layer l;
  std::vector<PendingOp> ops = l.ops();
  Graph g = build_graph(ops);
  EXPECT_EQ(to_text(g),
            "graph(%0: f32[64, 96], %1: f32[96, 128] strides=[1, 96], %2: f32[128], %s0: f64):\n"
            "  %3: f32[64, 128] = mm(%0, %1)\n"
            "  %4: f32[64, 128] = add(%3, %2, alpha=%s0)\n"
            "  %5: f32[64, 128] = relu(%4)\n"
            "  return (%5)\n");
  FusionPlan p = fuse(g, ops, live_only(g, {2}));
  EXPECT_EQ(plan_text(p, g),
            "eager mm + epilogue fused_add_relu\n"
            "kernel fused_add_relu [2 nodes, 1 stores] (when its mm cannot take it)\n");
  ASSERT_EQ(p.epilogues.size(), 1u);
  const MatmulEpilogue& e = p.epilogues[0];
  EXPECT_EQ(e.mm, 0);
  ASSERT_EQ(e.ops.size(), 2u);
  EXPECT_EQ(e.ops[0].kind, EpilogueOp::Kind::Add);
  EXPECT_EQ(e.ops[1].kind, EpilogueOp::Kind::Relu);

  ASSERT_TRUE(run_matmul_epilogue(e, ops));  // fails under KILN_GEMM=openblas, as it should
  Tensor want = relu(add(mm(l.x, transpose(l.w, 0, 1)), l.b));
  const float* got = l.r.data<float>();
  const float* ref = want.data<float>();
  for (int64_t i = 0; i < want.numel(); ++i) ASSERT_NEAR(got[i], ref[i], 1e-4f * (1 + std::abs(ref[i]))) << i;
}

TEST(MatmulEpilogue, ResidualAddIsADenseOperand) {
  Layer l;
  std::vector<PendingOp> ops = {pending("mm", {l.x, transpose(l.w, 0, 1)}, {l.y}), pending("add", {l.y, l.b, 1.0}, {l.z}),
                                pending("add", {l.residual, l.z, 1.0}, {l.r})};
  Graph g = build_graph(ops);
  FusionPlan p = fuse(g, ops, live_only(g, {2}));
  EXPECT_EQ(plan_text(p, g),
            "eager mm + epilogue fused_add\n"
            "kernel fused_add [2 nodes, 1 stores] (when its mm cannot take it)\n");
  ASSERT_EQ(p.epilogues.size(), 1u);
  ASSERT_TRUE(run_matmul_epilogue(p.epilogues[0], ops));
  Tensor want = add(l.residual, add(mm(l.x, transpose(l.w, 0, 1)), l.b));
  for (int64_t i = 0; i < want.numel(); ++i)
    ASSERT_NEAR(l.r.data<float>()[i], want.data<float>()[i], 1e-4f * (1 + std::abs(want.data<float>()[i]))) << i;
}

// What post-ops cannot express runs the two steps: an alpha other than 1 (a
// Python number, so it may change between runs), a bias along the rows.
TEST(MatmulEpilogue, RefusesWhatPostOpsCannotExpress) {
  Layer l;
  std::vector<PendingOp> ops = l.ops();
  Graph g = build_graph(ops);
  FusionPlan p = fuse(g, ops, live_only(g, {2}));
  ASSERT_EQ(p.epilogues.size(), 1u);
  std::vector<PendingOp> scaled = ops;
  scaled[1] = pending("add", {l.y, l.b, 2.0}, {l.z});
  std::fill_n(l.r.data<float>(), l.r.numel(), 7.0f);
  EXPECT_FALSE(run_matmul_epilogue(p.epilogues[0], scaled));
  Tensor column_bias = randn({64, 1});
  std::vector<PendingOp> by_rows = ops;
  by_rows[1] = pending("add", {l.y, column_bias, 1.0}, {l.z});
  EXPECT_FALSE(run_matmul_epilogue(p.epilogues[0], by_rows));
  EXPECT_EQ(l.r.data<float>()[0], 7.0f);  // nothing written
}

// A value stored besides the last (the add's output kept for a backward)
// keeps the kernel: post-ops write one tensor.
TEST(MatmulEpilogue, AStoredIntermediateKeepsTheKernel) {
  Layer l;
  std::vector<PendingOp> ops = l.ops();
  Graph g = build_graph(ops);
  FusionPlan p = fuse(g, ops, live_only(g, {1, 2}));
  EXPECT_EQ(plan_text(p, g), "eager mm\nkernel fused_add_relu [2 nodes, 2 stores]\n");
  EXPECT_TRUE(p.epilogues.empty());
}

TEST(MatmulEpilogue, OnlyAddsAndRelus) {
  Layer l;
  std::vector<PendingOp> ops = {pending("mm", {l.x, transpose(l.w, 0, 1)}, {l.y}), pending("mul", {l.y, l.b}, {l.z})};
  Graph g = build_graph(ops);
  FusionPlan p = fuse(g, ops, live_only(g, {1}));
  EXPECT_EQ(plan_text(p, g), "eager mm\nkernel fused_mul [1 nodes, 1 stores]\n");
}

// The bias is computed after the product (a kernel that runs later): the
// product's output pass would read it before it exists.
TEST(MatmulEpilogue, AnOperandComputedAfterTheProductKeepsTheKernel) {
  Layer l;
  Tensor b2 = t({128});
  std::vector<PendingOp> ops = {pending("mm", {l.x, transpose(l.w, 0, 1)}, {l.y}), pending("exp", {l.b}, {b2}),
                                pending("add", {l.y, b2, 1.0}, {l.z})};
  Graph g = build_graph(ops);
  FusionPlan p = fuse(g, ops, live_only(g, {2}));
  EXPECT_EQ(plan_text(p, g).rfind("eager mm\n", 0), 0u) << plan_text(p, g);
  EXPECT_TRUE(p.epilogues.empty()) << plan_text(p, g);
}

}  // namespace
}  // namespace kiln::jit

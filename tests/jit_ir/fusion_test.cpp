// The fusion pass on hand-made pending ops: the graph before, the plan and
// kernel IR after. Kernels are compared as text (core/kernel_ir.h to_text).
#include <gtest/gtest.h>

#include <cmath>

#include "core/cpu_cache.h"
#include "core/ops.h"
#include "jit/fusion.h"
#include "jit/liveness.h"
#include "jit/passes/passes.h"
#include "tests/jit_ir/pending_ops.h"

namespace kiln::jit {
namespace {

using lazy::PendingOp;

Tensor t(Shape sizes, DType d = DType::Float32) { return empty_tensor(sizes, d); }

// Only the last node's outputs are observable (what a function returns).
std::vector<bool> last_live(const Graph& g) {
  std::vector<bool> live(g.values.size(), false);
  for (ValueId v : g.nodes.back().outs) live[size_t(v)] = true;
  return live;
}

TEST(Fusion, PointwiseChainIsOneKernelStoringOnlyTheResult) {
  // y = x * w + b; gelu(tanh) of y: the pointwise chain.
  Tensor x = t({4, 8}), w = t({8}), b = t({8}), m = t({4, 8}), y = t({4, 8}), out = t({4, 8});
  std::vector<PendingOp> ops = {pending("mul", {x, w}, {m}), pending("add", {m, b, 1.0}, {y}),
                                pending("gelu", {y, std::string("tanh")}, {out})};
  Graph g = build_graph(ops);
  EXPECT_EQ(to_text(g),
            "graph(%0: f32[4, 8], %1: f32[8], %2: f32[8], %s0: f64):\n"
            "  %3: f32[4, 8] = mul(%0, %1)\n"
            "  %4: f32[4, 8] = add(%3, %2, alpha=%s0)\n"
            "  %5: f32[4, 8] = gelu(%4, approximate='tanh')\n"
            "  return (%5)\n");
  FusionPlan p = fuse(g, ops, last_live(g));
  EXPECT_EQ(plan_text(p, g), "kernel fused_mul_add_gelu [3 nodes, 1 stores]\n");
  ASSERT_EQ(p.kernels.size(), 1u);
  const kir::Kernel& k = p.kernels[0].kernel;
  EXPECT_EQ(k.kind, kir::Kind::Pointwise);
  EXPECT_EQ(k.rank, 2);
  ASSERT_EQ(k.operands.size(), 4u);  // x, w, b loaded; out stored
  EXPECT_EQ(k.operands[1].inner, kir::Inner::Contiguous);
  EXPECT_TRUE(k.operands[3].output);
  ASSERT_EQ(p.kernels[0].params.size(), 1u);  // alpha: a kernel argument, not a constant
  EXPECT_EQ(k.stores.size(), 1u);
  // tanh-GELU as x / (1 + exp(-2u)): one exp and one division, no tanh.
  EXPECT_NE(k.to_text().find("Exp.float32"), std::string::npos) << k.to_text();
  EXPECT_NE(k.to_text().find("Div.float32"), std::string::npos) << k.to_text();
  EXPECT_EQ(k.to_text().find("Tanh"), std::string::npos) << k.to_text();
}

TEST(Fusion, NodeWithDynamicIntsRunsEagerAndItsNeighboursStillFuse) {
  // exp, then triu (its diagonal lowered as a constant), then neg: with the
  // diagonal dynamic, triu runs on its eager kernel, which reads each run's value.
  Tensor x = t({4, 4}), e = t({4, 4}), u = t({4, 4}), n = t({4, 4});
  std::vector<PendingOp> ops = {pending("exp", {x}, {e}), pending("triu", {e, int64_t(1)}, {u}),
                                pending("neg", {u}, {n})};
  Graph fixed = build_graph(ops);
  EXPECT_EQ(plan_text(fuse(fixed, ops, last_live(fixed)), fixed), "kernel fused_exp_triu_neg [3 nodes, 1 stores]\n");
  AllIntsDynamic dyn;
  Graph g = build_graph(ops, &dyn);
  EXPECT_TRUE(g.nodes[1].dynamic_ints);
  EXPECT_FALSE(g.nodes[0].dynamic_ints);
  EXPECT_EQ(to_text(g),
            "graph(%0: f32[4, 4]):\n"
            "  %1: f32[4, 4] = exp(%0)\n"
            "  %2: f32[4, 4] = triu(%1, diagonal=?)\n"
            "  %3: f32[4, 4] = neg(%2)\n"
            "  return (%3)\n");
  EXPECT_EQ(plan_text(fuse(g, ops, last_live(g)), g),
            "kernel fused_exp [1 nodes, 1 stores]\neager triu\nkernel fused_neg [1 nodes, 1 stores]\n");
}

TEST(Fusion, LiveIntermediateIsStoredToo) {
  Tensor x = t({16}), y = t({16}), z = t({16});
  std::vector<PendingOp> ops = {pending("exp", {x}, {y}), pending("neg", {y}, {z})};
  Graph g = build_graph(ops);
  std::vector<bool> live(g.values.size(), true);
  FusionPlan p = fuse(g, ops, live);
  EXPECT_EQ(plan_text(p, g), "kernel fused_exp_neg [2 nodes, 2 stores]\n");
}

TEST(Fusion, MatmulRunsEagerAndItsEpilogueFuses) {
  Tensor x = t({4, 3}), w = t({3, 5}), b = t({5}), y = t({4, 5}), z = t({4, 5}), r = t({4, 5});
  std::vector<PendingOp> ops = {pending("mm", {x, w}, {y}), pending("add", {y, b, 1.0}, {z}), pending("relu", {z}, {r})};
  Graph g = build_graph(ops);
  FusionPlan p = fuse(g, ops, last_live(g));
  // Below oneDNN's size, the plan still names the epilogue; the run falls
  // back to the kernel (tests/jit_ir/matmul_epilogue_test.cpp).
  EXPECT_EQ(plan_text(p, g),
            "eager mm + epilogue fused_add_relu\nkernel fused_add_relu [2 nodes, 1 stores] (when its mm cannot take it)\n");
}

TEST(Fusion, SoftmaxWithItsProducerIsOneRowKernel) {
  Tensor x = t({6, 10}), s = t({6, 10}), y = t({6, 10});
  std::vector<PendingOp> ops = {pending("mul", {x, x}, {s}), pending("softmax", {s, int64_t(-1), Value()}, {y})};
  Graph g = build_graph(ops);
  FusionPlan p = fuse(g, ops, last_live(g));
  ASSERT_EQ(plan_text(p, g), "kernel fused_mul_softmax [2 nodes, 1 stores]\n");
  const kir::Kernel& k = p.kernels[0].kernel;
  EXPECT_EQ(k.kind, kir::Kind::Row);
  ASSERT_EQ(k.reductions.size(), 2u);
  EXPECT_EQ(k.reductions[0].op, kir::ReduceOp::Max);
  EXPECT_EQ(k.reductions[1].op, kir::ReduceOp::Sum);
}

// The causal attention's scores -> masked_fill(-inf) -> softmax: one Row
// kernel, the fill value a kernel parameter and the mask broadcast over rows.
TEST(Fusion, MaskedFillJoinsTheSoftmaxKernel) {
  Tensor x = t({6, 10}), mask = t({10}, DType::Bool), m = t({6, 10}), y = t({6, 10});
  std::vector<PendingOp> ops = {pending("masked_fill.Scalar", {x, mask, -INFINITY}, {m}),
                                pending("softmax", {m, int64_t(-1), Value()}, {y})};
  Graph g = build_graph(ops);
  FusionPlan p = fuse(g, ops, last_live(g));
  ASSERT_EQ(plan_text(p, g), "kernel fused_masked_fill_softmax [2 nodes, 1 stores]\n");
  const kir::Kernel& k = p.kernels[0].kernel;
  EXPECT_EQ(k.kind, kir::Kind::Row);
  EXPECT_EQ(k.num_params, 1) << k.to_text();
  EXPECT_NE(k.to_text().find("Select"), std::string::npos) << k.to_text();
}

// Token + position embeddings: the lookup is a gather of whole rows (its
// offset a row index times the table's row stride, a kernel argument) and
// fuses with the add; the indices broadcast along the embedding dim.
TEST(Fusion, EmbeddingGathersRowsAndFusesWithItsConsumer) {
  Tensor w = t({10, 8}), ids = t({2, 3}, DType::Int64), pos = t({3, 8}), e = t({2, 3, 8}), y = t({2, 3, 8});
  std::vector<PendingOp> ops = {pending("embedding", {w, ids}, {e}), pending("add", {e, pos, 1.0}, {y})};
  Graph g = build_graph(ops);
  FusionPlan p = fuse(g, ops, last_live(g));
  ASSERT_EQ(plan_text(p, g), "kernel fused_embedding_add [2 nodes, 1 stores]\n");
  EXPECT_EQ(p.kernels[0].kernel.to_text(),
            "kernel fused_embedding_add pointwise rank 3 params 2\n"
            "  operand 0: int64 broadcast in\n"     // ids [2, 3] as [2, 3, 1]
            "  operand 1: float32 contiguous in\n"  // the table without its row dim
            "  operand 2: float32 contiguous in\n"  // pos
            "  operand 3: float32 contiguous out\n"
            "  %0 = Load.int64 #0\n"
            "  %1 = Param.int64 #0\n"  // the table's row stride
            "  %2 = Mul.int64 %0 %1\n"
            "  %3 = Gather.float32 #1 %2\n"
            "  %4 = Load.float32 #2\n"
            "  %5 = Param.float32 #1\n"  // alpha
            "  %6 = Mul.float32 %5 %4\n"
            "  %7 = Add.float32 %3 %6\n"
            "  store 3 <- %7\n");
}

// nll_loss over [N, C] log-probabilities: one Row kernel over the N targets,
// gathering each target's class, with the loss and total_weight per row.
TEST(Fusion, NllLossIsOneRowKernelOverTheTargets) {
  Tensor logp = t({4, 5}), target = t({4}, DType::Int64), w = t({5}), loss = t({}), total = t({});
  std::vector<PendingOp> ops = {
      pending("nll_loss_forward", {logp, target, w, int64_t(1), int64_t(-100)}, {loss, total})};
  Graph g = build_graph(ops);
  std::vector<bool> live(g.values.size(), true);
  FusionPlan p = fuse(g, ops, live);
  ASSERT_EQ(plan_text(p, g), "kernel fused_nll_loss_forward [1 nodes, 2 stores]\n");
  EXPECT_EQ(p.kernels[0].kernel.to_text(),
            "kernel fused_nll_loss_forward row rank 1 params 2\n"
            "  operand 0: int64 contiguous in\n"   // target
            "  operand 1: float32 strided in\n"    // logp without its class dim: x[i, 0]
            "  operand 2: float32 broadcast in\n"  // the class weights without theirs
            "  operand 3: float32 broadcast out\n"
            "  operand 4: float32 broadcast out\n"
            "  %0 = Load.int64 #0\n"
            "  %1 = Const.float64 0\n"
            "  %2 = Const.int64 -100\n"
            "  %3 = Ne.bool %0 %2\n"
            "  %4 = Const.int64 0\n"
            "  %5 = Select.int64 %0 %4 %3\n"  // an ignored target reads class 0
            "  %6 = Param.int64 #0\n"
            "  %7 = Mul.int64 %5 %6\n"
            "  %8 = Gather.float32 #1 %7\n"
            "  %9 = Cast.float64 %8\n"
            "  %10 = Param.int64 #1\n"
            "  %11 = Mul.int64 %5 %10\n"
            "  %12 = Gather.float32 #2 %11\n"
            "  %13 = Cast.float64 %12\n"
            "  %14 = Mul.float64 %13 %9\n"
            "  %15 = Neg.float64 %14\n"
            "  %16 = Select.float64 %15 %1 %3\n"
            "  %17 = Select.float64 %13 %1 %3\n"
            "  %18 = RowValue.float64 #0\n"
            "  %19 = RowValue.float64 #1\n"
            "  %20 = Div.float64 %19 %18\n"
            "  %21 = Cast.float32 %20\n"
            "  %22 = Cast.float32 %18\n"
            "  reduce 0: sum %17\n"
            "  reduce 1: sum %16\n"
            "  store 3 <- %21 per_row\n"
            "  store 4 <- %22 per_row\n");
}

// embedding's backward walks the gradient [2, 3, 8] and adds each row into
// the weight row its index names: a scatter-add into a zeroed output, in a
// kernel of its own (its result exists only in memory).
TEST(Fusion, EmbeddingBackwardIsAScatterAddKernel) {
  Tensor g = t({2, 3, 8}), ids = t({2, 3}, DType::Int64), gw = t({10, 8}), y = t({10, 8});
  std::vector<PendingOp> ops = {pending("embedding_dense_backward", {g, ids, int64_t(10), int64_t(-1), false}, {gw}),
                                pending("mul", {gw, gw}, {y})};
  Graph g2 = build_graph(ops);
  FusionPlan p = fuse(g2, ops, last_live(g2));
  ASSERT_EQ(plan_text(p, g2),
            "kernel fused_embedding_dense_backward [1 nodes, 1 stores]\nkernel fused_mul [1 nodes, 1 stores]\n");
  EXPECT_EQ(p.kernels[0].zero_first, std::vector<int32_t>{2});
  EXPECT_EQ(p.kernels[0].kernel.to_text(),
            "kernel fused_embedding_dense_backward pointwise rank 3 params 1\n"
            "  operand 0: int64 broadcast in\n"     // ids [2, 3] as [2, 3, 1]
            "  operand 1: float32 contiguous in\n"  // the gradient: the domain
            "  operand 2: float32 contiguous out\n" // the weight's gradient without its row dim
            "  %0 = Load.int64 #0\n"
            "  %1 = Load.float32 #1\n"
            "  %2 = Const.int64 -1\n"  // padding_idx: none
            "  %3 = Ne.bool %0 %2\n"
            "  %4 = Const.float32 0\n"
            "  %5 = Select.float32 %1 %4 %3\n"
            "  %6 = Param.int64 #0\n"  // the weight gradient's row stride
            "  %7 = Mul.int64 %0 %6\n"
            "  store 2 += %5 at %7\n");
}

TEST(Fusion, SoftmaxOverAnotherDimRunsEager) {
  Tensor x = t({6, 10}), y = t({6, 10});
  std::vector<PendingOp> ops = {pending("softmax", {x, int64_t(0), Value()}, {y})};
  Graph g = build_graph(ops);
  EXPECT_EQ(plan_text(fuse(g, ops, last_live(g)), g), "eager softmax\n");
}

TEST(Fusion, LayerNormStoresPerRowStatsOnlyWhenLive) {
  Tensor x = t({4, 32}), w = t({32}), b = t({32}), y = t({4, 32}), mean = t({4, 1}), rstd = t({4, 1});
  std::vector<PendingOp> ops = {pending("native_layer_norm", {x, Shape{32}, w, b, 1e-5}, {y, mean, rstd})};
  Graph g = build_graph(ops);
  std::vector<bool> live(g.values.size(), false);
  live[size_t(g.nodes[0].outs[0])] = true;
  FusionPlan p = fuse(g, ops, live);
  EXPECT_EQ(plan_text(p, g), "kernel fused_native_layer_norm [1 nodes, 1 stores]\n");
  live.assign(g.values.size(), true);
  p = fuse(g, ops, live);
  ASSERT_EQ(p.kernels.size(), 1u);
  int per_row = 0;
  for (const kir::Store& s : p.kernels[0].kernel.stores) per_row += s.per_row;
  EXPECT_EQ(per_row, 2);
}

TEST(Fusion, DeadWorkIsDropped) {
  Tensor x = t({8}), y = t({8}), z = t({8});
  std::vector<PendingOp> ops = {pending("exp", {x}, {y}), pending("neg", {x}, {z})};
  Graph g = build_graph(ops);
  std::vector<bool> live(g.values.size(), false);
  live[size_t(g.nodes[1].outs[0])] = true;  // exp's result is never read
  FusionPlan p = fuse(g, ops, live);
  ASSERT_EQ(p.kernels.size(), 1u);
  EXPECT_EQ(p.kernels[0].kernel.stores.size(), 1u);
}

TEST(Fusion, KernelIsNotMovedPastAWriterOfItsInput) {
  // neg reads y before mm overwrites it, add reads the new y: neg's kernel
  // must run before mm, not be delayed into add's.
  Tensor x = t({4, 4}), w = t({4, 4}), y = t({4, 4}), a = t({4, 4}), c = t({4, 4});
  std::vector<PendingOp> ops = {pending("neg", {y}, {a}), pending("mm", {x, w}, {y}), pending("add", {a, y, 1.0}, {c})};
  Graph g = build_graph(ops);
  FusionPlan p = fuse(g, ops, last_live(g));
  // (add only finishes the product, so it is mm's epilogue; a, ready before mm, its operand.)
  EXPECT_EQ(plan_text(p, g),
            "kernel fused_neg [1 nodes, 1 stores]\neager mm + epilogue fused_add\n"
            "kernel fused_add [1 nodes, 1 stores] (when its mm cannot take it)\n");
}

// A linear layer's weight gradient at batch `batch` cloned into .grad, then
// SGD with momentum: buf = 0.9 * buf + grad; w -= 0.01 * buf.
struct SgdOnAWeightGradient {
  explicit SgdOnAWeightGradient(int64_t batch)
      : g(randn({batch, 4})), x(randn({batch, 6})), gt(transpose(g, 0, 1)), gw(t({4, 6})), grad(t({4, 6})),
        buf(randn({4, 6})), w(randn({4, 6})) {}
  Tensor g, x, gt, gw, grad, buf, w;
  std::vector<PendingOp> ops() const {
    return {pending("transpose", {g, 0, 1}, {gt}), pending("mm", {gt, x}, {gw}), pending("clone", {gw}, {grad}),
            pending("mul_", {buf, 0.9}, {buf}),    pending("add_", {buf, grad, 1.0}, {buf}),
            pending("add_", {w, buf, -0.01}, {w})};
  }
};

std::string optimized_plan(const std::vector<PendingOp>& ops) {
  Graph g = build_graph(ops);
  std::vector<bool> live(g.values.size(), false);
  live[size_t(g.nodes[2].outs[0])] = true;  // .grad
  optimize(g, live);
  return to_text(g) + "--\n" + plan_text(fuse(g, ops, live), g);
}

TEST(Fusion, OuterProductFusesIntoTheUpdateThatReadsIt) {
  // Batch 1: the product has one term per element, a broadcast multiply, so
  // the gradient is computed, stored into .grad and applied in one pass.
  EXPECT_EQ(optimized_plan(SgdOnAWeightGradient(1).ops()),
            "graph(%0: f32[1, 4], %1: f32[1, 6], %2: f32[4, 6], %3: f64[], %4: f32[4, 6], %s0: f64, %s1: f64):\n"
            "  %5: f32[4, 1] = transpose(%0, dim0=0, dim1=1)\n"
            "  %6: f32[4, 6] = mm(%5, %1)\n"
            "  %7: f32[4, 6] = clone(%6)\n"
            "  %8: f32[4, 6] = mul_(%2, %3) !mutates %2\n"
            "  %9: f32[4, 6] = add_(%8, %7, alpha=%s0) !mutates %8\n"
            "  %10: f32[4, 6] = add_(%4, %9, alpha=%s1) !mutates %4\n"
            "  return (), mutated (%2 <- %9, %4 <- %10)\n"
            "--\n"
            "eager transpose\n"
            "kernel fused_mm_clone_mul__add_ [5 nodes, 3 stores]\n");
  // Batch 3: a real product, a library call, whose buffer the clone takes.
  EXPECT_EQ(optimized_plan(SgdOnAWeightGradient(3).ops()),
            "graph(%0: f32[3, 4], %1: f32[3, 6], %2: f32[4, 6], %3: f64[], %4: f32[4, 6], %s0: f64, %s1: f64):\n"
            "  %5: f32[4, 3] strides=[1, 4] = transpose(%0, dim0=0, dim1=1)\n"
            "  %6: f32[4, 6] = mm(%5, %1)\n"
            "  %7: f32[4, 6] = clone(%6) !steals_source\n"
            "  %8: f32[4, 6] = mul_(%2, %3) !mutates %2\n"
            "  %9: f32[4, 6] = add_(%8, %7, alpha=%s0) !mutates %8\n"
            "  %10: f32[4, 6] = add_(%4, %9, alpha=%s1) !mutates %4\n"
            "  return (), mutated (%2 <- %9, %4 <- %10)\n"
            "--\n"
            "eager transpose\n"
            "eager mm\n"
            "eager clone (steals its source)\n"
            "kernel fused_mul__add_ [3 nodes, 2 stores]\n");
}

TEST(Fusion, InPlaceUpdateFusesWithItsReaders) {
  // An SGD step: p.add_(g, alpha=-lr) after reading p: one kernel writing p.
  Tensor p = t({32}), gr = t({32}), q = t({32});
  std::vector<PendingOp> ops = {pending("mul", {p, 2.0}, {q}), pending("add_", {p, gr, -0.1}, {p})};
  Graph g = build_graph(ops);
  std::vector<bool> live(g.values.size(), true);
  FusionPlan plan = fuse(g, ops, live);
  EXPECT_EQ(plan_text(plan, g), "kernel fused_mul_add_ [2 nodes, 2 stores]\n");
}

// A kernel whose fresh outputs reach streaming_store_bytes() is marked
// `streams` (its stores may bypass the cache); one that updates a tensor in
// place never is, however large. The stream. variant of these tests sets the
// threshold to 4096 bytes, below the 16 KiB written here.
TEST(Fusion, LargeFreshOutputsStreamInPlaceUpdatesDoNot) {
  const int64_t threshold = streaming_store_bytes();
  Tensor x = t({64, 64}), y = t({64, 64}), p = t({64, 64}), gr = t({64, 64});
  std::vector<PendingOp> fresh_ops = {pending("exp", {x}, {y})};
  Graph fresh = build_graph(fresh_ops);
  FusionPlan a = fuse(fresh, fresh_ops, last_live(fresh));
  ASSERT_EQ(a.kernels.size(), 1u);
  EXPECT_EQ(a.kernels[0].kernel.streams, threshold > 0 && threshold <= 64 * 64 * 4) << "threshold " << threshold;
  EXPECT_EQ(a.kernels[0].kernel.to_text().find(" streams\n") != std::string::npos, a.kernels[0].kernel.streams);

  std::vector<PendingOp> update_ops = {pending("add_", {p, gr, -0.1}, {p})};
  Graph update = build_graph(update_ops);
  std::vector<bool> live(update.values.size(), true);
  FusionPlan b = fuse(update, update_ops, live);
  ASSERT_EQ(b.kernels.size(), 1u);
  EXPECT_FALSE(b.kernels[0].kernel.streams);
}

TEST(Fusion, LivenessFollowsReferences) {
  Tensor x = t({8});
  std::vector<PendingOp> ops;
  {
    Tensor y = t({8}), z = t({8});
    ops = {pending("exp", {x}, {y}), pending("neg", {y}, {z})};
  }
  Graph g = build_graph(ops);
  Liveness lv = liveness(g, ops);
  EXPECT_FALSE(lv.live[size_t(g.nodes[0].outs[0])]);  // only the ops hold exp's output
  EXPECT_FALSE(lv.live[size_t(g.nodes[1].outs[0])]);
  Tensor keep = ops[1].outs[0];  // a Python variable now holds neg's output
  Liveness lv2 = liveness(g, ops);
  EXPECT_TRUE(lv2.live[size_t(g.nodes[1].outs[0])]);
  EXPECT_NE(lv.key, lv2.key);
}

}  // namespace
}  // namespace kiln::jit

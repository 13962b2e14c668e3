// Fusion, code generation and launch together on hand-made pending ops: the
// compiled kernel writes what the eager kernels would, a run whose strides
// no longer fit the compiled kernel is refused (the runtime then runs the
// nodes eagerly), and kernels come back from the kernel cache.
#include <gtest/gtest.h>

#include <cmath>

#include "core/dispatch.h"
#include "core/ops.h"
#include "jit/fusion.h"
#include "jit/kernel_cache.h"
#include "jit/launch.h"
#include "tests/jit_ir/pending_ops.h"

namespace kiln::jit {
namespace {

using lazy::PendingOp;


// x * w + b, then tanh-GELU: the pointwise chain, on [rows, cols] with w, b of [cols].
std::vector<PendingOp> chain(const Tensor& x, const Tensor& w, const Tensor& b) {
  Shape s = x.sizes();
  Tensor m = empty_tensor(s, DType::Float32), y = empty_tensor(s, DType::Float32), out = empty_tensor(s, DType::Float32);
  return {pending("mul", {x, w}, {m}), pending("add", {m, b, 1.0}, {y}),
          pending("gelu", {y, std::string("tanh")}, {out})};
}

float max_diff(const Tensor& a, const Tensor& b) {
  Tensor d = abs(sub(a, b));
  return float(max(d).item_double());
}

struct Compiled {
  FusionPlan plan;
  std::vector<kir::KernelFn> fns;
};

Compiled compile(const Graph& g, std::span<const PendingOp> ops) {
  std::vector<bool> live(g.values.size(), false);
  for (ValueId v : g.nodes.back().outs) live[size_t(v)] = true;
  Compiled c{fuse(g, ops, live), {}};
  for (const FusedKernel& fk : c.plan.kernels) c.fns.push_back(KernelCache::get().find_or_compile(fk.kernel, {}).fn);
  return c;
}

TEST(Launch, FusedChainMatchesEagerKernels) {
  Tensor x = randn({37, 53}), w = randn({53}), b = randn({53});
  std::vector<PendingOp> ops = chain(x, w, b);
  Graph g = build_graph(ops);
  Compiled c = compile(g, ops);
  ASSERT_EQ(c.plan.kernels.size(), 1u);
  ASSERT_TRUE(launch(c.plan.kernels[0], c.fns[0], ops));
  Tensor compiled = clone(ops.back().outs[0]);
  for (const PendingOp& p : ops) run_deferred(p);  // the reference
  EXPECT_LT(max_diff(compiled, ops.back().outs[0]), 1e-6f);
}

TEST(Launch, OneKernelServesOtherSizesAndRefusesOtherLayouts) {
  Tensor x = randn({8, 16}), w = randn({16}), b = randn({16});
  std::vector<PendingOp> ops = chain(x, w, b);
  Graph g = build_graph(ops);
  Compiled c = compile(g, ops);
  // Same structure, other sizes (what a dynamic dim gives): sizes are kernel arguments.
  Tensor x2 = randn({300, 40}), w2 = randn({40}), b2 = randn({40});
  std::vector<PendingOp> bigger = chain(x2, w2, b2);
  ASSERT_TRUE(launch(c.plan.kernels[0], c.fns[0], bigger));
  Tensor compiled = clone(bigger.back().outs[0]);
  for (const PendingOp& p : bigger) run_deferred(p);
  EXPECT_LT(max_diff(compiled, bigger.back().outs[0]), 1e-6f);
  // A transposed input walks its inner dim with stride 40, not 1: refused.
  Tensor xt = transpose(randn({40, 300}), 0, 1);
  std::vector<PendingOp> strided = chain(xt, w2, b2);
  EXPECT_FALSE(launch(c.plan.kernels[0], c.fns[0], strided));
}

TEST(Launch, SoftmaxRowKernelMatchesEager) {
  Tensor x = randn({33, 129}), y = empty_tensor({33, 129}, DType::Float32);
  std::vector<PendingOp> ops = {pending("softmax", {x, int64_t(-1), Value()}, {y})};
  Graph g = build_graph(ops);
  Compiled c = compile(g, ops);
  ASSERT_EQ(c.plan.kernels.size(), 1u);
  ASSERT_TRUE(launch(c.plan.kernels[0], c.fns[0], ops));
  Tensor compiled = clone(y);
  run_deferred(ops[0]);
  EXPECT_LT(max_diff(compiled, y), 1e-6f);
}

TEST(Launch, PowIsSpecializedOnItsExponentAndGuarded) {
  Tensor x = randn({50}), y = empty_tensor({50}, DType::Float32);
  std::vector<PendingOp> cube = {pending("pow.Tensor_Scalar", {x, 3.0}, {y})};
  Graph g = build_graph(cube);
  Compiled c = compile(g, cube);
  ASSERT_EQ(c.plan.kernels.size(), 1u);
  EXPECT_EQ(c.plan.kernels[0].kernel.to_text().find("Pow"), std::string::npos);  // x * x * x
  ASSERT_TRUE(launch(c.plan.kernels[0], c.fns[0], cube));
  Tensor compiled = clone(y);
  run_deferred(cube[0]);
  EXPECT_LT(max_diff(compiled, y), 1e-6f);
  // Another exponent, same graph (Python numbers are inputs): the kernel refuses it.
  std::vector<PendingOp> square = {pending("pow.Tensor_Scalar", {x, 2.0}, {y})};
  EXPECT_FALSE(launch(c.plan.kernels[0], c.fns[0], square));
}

TEST(Launch, OuterProductIsSpecializedOnItsInnerSizeAndGuarded) {
  for (DType d : {DType::Float32, DType::Float64}) {
    // A batch-1 weight gradient: g.t() @ x with one term per element.
    Tensor a = transpose(to_dtype(randn({1, 37}), d), 0, 1), b = to_dtype(randn({1, 53}), d), y = empty_tensor({37, 53}, d);
    std::vector<PendingOp> outer = {pending("mm", {a, b}, {y})};
    Graph g = build_graph(outer);
    Compiled c = compile(g, outer);
    ASSERT_EQ(c.plan.kernels.size(), 1u);
    ASSERT_TRUE(launch(c.plan.kernels[0], c.fns[0], outer));
    Tensor compiled = clone(y);
    run_deferred(outer[0]);  // the BLAS path: one product per element, so bit for bit the same
    EXPECT_EQ(max_diff(compiled, y), 0.0f);
    // The same graph with an inner size of 2 (a dynamic batch): refused.
    Tensor a2 = transpose(to_dtype(randn({2, 37}), d), 0, 1), b2 = to_dtype(randn({2, 53}), d);
    std::vector<PendingOp> batch2 = {pending("mm", {a2, b2}, {y})};
    EXPECT_FALSE(launch(c.plan.kernels[0], c.fns[0], batch2));
  }
}

TEST(Launch, KernelCacheReturnsTheSameEntryForTheSameIr) {
  Tensor x = randn({4, 4}), w = randn({4}), b = randn({4});
  std::vector<PendingOp> ops = chain(x, w, b);
  Graph g = build_graph(ops);
  std::vector<bool> live(g.values.size(), true);
  FusionPlan p = fuse(g, ops, live);
  std::string first, second;
  kir::KernelFn a = KernelCache::get().find_or_compile(p.kernels[0].kernel, {}, &first).fn;
  kir::KernelFn b2 = KernelCache::get().find_or_compile(p.kernels[0].kernel, {}, &second).fn;
  EXPECT_EQ(a, b2);
  EXPECT_EQ(second, "memory");
}

}  // namespace
}  // namespace kiln::jit

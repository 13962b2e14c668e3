// The trace IR built from hand-made pending ops: inputs, functionalized
// in-place ops, views, lists, the text form and the structural hash.
#include <gtest/gtest.h>

#include "core/ops.h"
#include "jit/graph.h"
#include "tests/jit_ir/pending_ops.h"

namespace kiln::jit {
namespace {

using lazy::PendingOp;

// A pending op as dispatch would record it: arguments bound in schema order.

Tensor t(Shape sizes, DType d = DType::Float32) { return empty_tensor(sizes, d); }

struct Sites : SiteNames {
  std::string name(uint32_t site) const override { return site ? "model.py:" + std::to_string(site) : ""; }
};

struct Masks : DynamicDims {
  std::vector<uint64_t> masks;
  uint64_t mask(size_t i) const override { return i < masks.size() ? masks[i] : 0; }
};

// x @ w + b (alpha a Python float), then relu.
std::vector<PendingOp> mlp_ops(int64_t batch = 64, double alpha = 0.5) {
  Tensor x = t({batch, 10}), w = t({10, 10}), b = t({10});
  Tensor y = t({batch, 10}), z = t({batch, 10}), r = t({batch, 10});
  return {pending("mm", {x, w}, {y}, 12), pending("add", {y, b, alpha}, {z}, 13), pending("relu", {z}, {r}, 14)};
}

TEST(JitGraph, ChainHasInputsScalarInputAndNodes) {
  auto ops = mlp_ops();
  Graph g = build_graph(ops);
  ASSERT_EQ(g.nodes.size(), 3u);
  ASSERT_EQ(g.tensor_inputs.size(), 3u);
  ASSERT_EQ(g.scalar_inputs.size(), 1u);
  EXPECT_TRUE(g.mutations.empty());
  const IrValue& s = g.values[size_t(g.scalar_inputs[0])];
  EXPECT_EQ(s.kind, IrValue::Kind::ScalarInput);
  EXPECT_EQ(s.dtype, DType::Float64);
  // add reads mm's output, not a new input.
  const NodeArg& self = g.nodes[1].args[0];
  EXPECT_EQ(self.kind, NodeArg::Kind::Tensor);
  EXPECT_EQ(self.value, g.nodes[0].outs[0]);
  EXPECT_EQ(g.nodes[1].args[2].kind, NodeArg::Kind::Scalar);
  EXPECT_EQ(g.values[size_t(g.nodes[2].outs[0])].node, 2);
  EXPECT_EQ(g.nodes[0].site, 12u);
}

TEST(JitGraph, ChainText) {
  auto ops = mlp_ops();
  Sites sites;
  EXPECT_EQ(to_text(build_graph(ops), &sites),
            "graph(%0: f32[64, 10], %1: f32[10, 10], %2: f32[10], %s0: f64):\n"
            "  %3: f32[64, 10] = mm(%0, %1)                        # model.py:12\n"
            "  %4: f32[64, 10] = add(%3, %2, alpha=%s0)            # model.py:13\n"
            "  %5: f32[64, 10] = relu(%4)                          # model.py:14\n"
            "  return (%5)\n");
  // Without site names there are no comments.
  EXPECT_EQ(to_text(build_graph(ops)).find('#'), std::string::npos);
}

TEST(JitGraph, ScalarDTypeFollowsThePythonType) {
  Tensor a = t({3}), b = t({3});
  std::vector<PendingOp> ops{pending("add", {a, b, int64_t(2)}, {t({3})}), pending("add", {a, b, true}, {t({3})})};
  Graph g = build_graph(ops);
  ASSERT_EQ(g.scalar_inputs.size(), 2u);
  EXPECT_EQ(g.values[size_t(g.scalar_inputs[0])].dtype, DType::Int64);
  EXPECT_EQ(g.values[size_t(g.scalar_inputs[1])].dtype, DType::Bool);
  EXPECT_NE(to_text(g).find("%s0: i64, %s1: b8"), std::string::npos) << to_text(g);
}

TEST(JitGraph, InPlaceOpsAreFunctionalized) {
  Tensor p = t({10, 10}), grad = t({10, 10}), r = t({10, 10});
  std::vector<PendingOp> ops{pending("add_", {p, grad, -0.1}, {p}), pending("mul_", {p, grad}, {p}),
                             pending("relu", {p}, {r})};
  Graph g = build_graph(ops);
  ASSERT_EQ(g.tensor_inputs.size(), 2u);
  ValueId in = g.tensor_inputs[0];
  ValueId v1 = g.nodes[0].outs[0], v2 = g.nodes[1].outs[0];
  EXPECT_EQ(g.values[size_t(v1)].version_of, in);
  EXPECT_EQ(g.values[size_t(v2)].version_of, v1);
  EXPECT_EQ(g.nodes[1].args[0].value, v1);  // mul_ reads add_'s version
  EXPECT_EQ(g.nodes[2].args[0].value, v2);  // relu reads the last one
  ASSERT_EQ(g.mutations.size(), 1u);
  EXPECT_EQ(g.mutations[0], std::make_pair(in, v2));
  EXPECT_EQ(to_text(g),
            "graph(%0: f32[10, 10], %1: f32[10, 10], %s0: f64):\n"
            "  %2: f32[10, 10] = add_(%0, %1, alpha=%s0) !mutates %0\n"
            "  %3: f32[10, 10] = mul_(%2, %1) !mutates %2\n"
            "  %4: f32[10, 10] = relu(%3)\n"
            "  return (%4), mutated (%0 <- %3)\n");
}

TEST(JitGraph, InPlaceOnAnIntermediateIsNotAnInputMutation) {
  Tensor x = t({4}), y = t({4});
  std::vector<PendingOp> ops{pending("relu", {x}, {y}), pending("relu_", {y}, {y})};
  Graph g = build_graph(ops);
  EXPECT_TRUE(g.mutations.empty());
  EXPECT_EQ(g.values[size_t(g.nodes[1].outs[0])].version_of, g.nodes[0].outs[0]);
}

TEST(JitGraph, ViewOpsAreNodes) {
  Tensor x = t({8, 8});
  Tensor v = make_view(x, {4, 16}, {16, 1}, 0);
  Tensor tr = make_view(v, {16, 4}, {1, 16}, 0);
  Tensor r = t({16, 4});
  std::vector<PendingOp> ops{pending("view", {x, Shape{4, 16}}, {v}), pending("transpose", {v, int64_t(0), int64_t(1)}, {tr}),
                             pending("relu", {tr}, {r})};
  Graph g = build_graph(ops);
  ASSERT_EQ(g.tensor_inputs.size(), 1u);
  EXPECT_EQ(g.nodes[0].op->kind, OpKind::View);
  EXPECT_EQ(g.nodes[0].args[1].kind, NodeArg::Kind::Const);
  EXPECT_EQ(g.nodes[0].args[1].constant.int_list(), (Shape{4, 16}));
  EXPECT_EQ(g.nodes[1].args[0].value, g.nodes[0].outs[0]);
  EXPECT_EQ(to_text(g),
            "graph(%0: f32[8, 8]):\n"
            "  %1: f32[4, 16] = view(%0, size=[4, 16])\n"
            "  %2: f32[16, 4] strides=[1, 16] = transpose(%1, dim0=0, dim1=1)\n"
            "  %3: f32[16, 4] = relu(%2)\n"
            "  return (%3)\n");
}

TEST(JitGraph, TensorListArgument) {
  Tensor a = t({2, 3}), b = t({4, 3}), c = t({8, 3});
  std::vector<PendingOp> ops{pending("cat", {std::vector<Tensor>{a, b, a}, int64_t(0)}, {c})};
  Graph g = build_graph(ops);
  ASSERT_EQ(g.tensor_inputs.size(), 2u);
  const NodeArg& list = g.nodes[0].args[0];
  ASSERT_EQ(list.kind, NodeArg::Kind::TensorList);
  EXPECT_EQ(list.list, (std::vector<ValueId>{g.tensor_inputs[0], g.tensor_inputs[1], g.tensor_inputs[0]}));
  EXPECT_NE(to_text(g).find("= cat([%0, %1, %0], dim=0)"), std::string::npos) << to_text(g);
}

TEST(JitGraph, RepeatedTensorIsOneInput) {
  Tensor x = t({5});
  std::vector<PendingOp> ops{pending("mul", {x, x}, {t({5})}), pending("add", {x, x}, {t({5})})};
  Graph g = build_graph(ops);
  ASSERT_EQ(g.tensor_inputs.size(), 1u);
  EXPECT_EQ(g.nodes[0].args[0].value, g.nodes[0].args[1].value);
  EXPECT_EQ(g.nodes[1].args[1].value, g.tensor_inputs[0]);
}

TEST(JitGraph, NoneInATensorSlotIsValueMinusOne) {
  Tensor x = t({5});
  std::vector<PendingOp> ops{pending("add", {x, Tensor()}, {t({5})})};
  Graph g = build_graph(ops);
  EXPECT_EQ(g.nodes[0].args[1].kind, NodeArg::Kind::Tensor);
  EXPECT_EQ(g.nodes[0].args[1].value, -1);
  EXPECT_EQ(g.tensor_inputs.size(), 1u);
  EXPECT_NE(to_text(g).find("add(%0, None, alpha=%s0)"), std::string::npos) << to_text(g);
}

TEST(JitGraph, DynamicDimsPrintAsSymbols) {
  auto ops = mlp_ops(32);
  Masks m;
  m.masks = {1};  // dim 0 of x
  Graph g = build_graph(ops, &m);
  EXPECT_EQ(g.values[size_t(g.tensor_inputs[0])].dynamic_dims, 1u);
  EXPECT_EQ(g.values[size_t(g.nodes[2].outs[0])].dynamic_dims, 1u);  // carried through mm, add, relu
  EXPECT_EQ(to_text(g),
            "graph(%0: f32[s0_0, 10], %1: f32[10, 10], %2: f32[10], %s0: f64):\n"
            "  %3: f32[s0_0, 10] = mm(%0, %1)\n"
            "  %4: f32[s0_0, 10] = add(%3, %2, alpha=%s0)\n"
            "  %5: f32[s0_0, 10] = relu(%4)\n"
            "  return (%5)\n");
  // The example size does not matter to a dynamic graph's identity.
  auto other = mlp_ops(48);
  EXPECT_EQ(structural_hash(build_graph(other, &m)), structural_hash(g));
  EXPECT_NE(structural_hash(build_graph(other)), structural_hash(build_graph(ops)));
}

TEST(JitGraph, DynamicIntsPrintAsQuestionMarksAndHashAsTheirKind) {
  struct Ints : DynamicDims {
    uint64_t mask(size_t) const override { return 1; }
    bool int_arg(size_t node, size_t arg) const override { return node == 0 && arg == 1; }
  } dyn;
  auto ops = [](int64_t n) {
    Tensor x = t({n}), r = t({1, n});
    Tensor v = make_view(x, {1, n}, {n, 1}, 0);
    return std::vector<PendingOp>{pending("view", {x, Shape{1, n}}, {v}, 3), pending("relu", {v}, {r}, 4)};
  };
  Graph g = build_graph(ops(5), &dyn);
  EXPECT_TRUE(g.nodes[0].dynamic_ints);
  EXPECT_TRUE(g.nodes[0].args[1].dynamic);
  EXPECT_FALSE(g.nodes[1].dynamic_ints);
  EXPECT_EQ(to_text(g),
            "graph(%0: f32[s0_0]):\n"
            "  %1: f32[1, s0_0] = view(%0, size=[?, ?])\n"
            "  %2: f32[1, s0_0] = relu(%1)\n"
            "  return (%2)\n");
  EXPECT_EQ(structural_hash(build_graph(ops(9), &dyn)), structural_hash(g));
  EXPECT_EQ(to_text(build_graph(ops(9), &dyn)), to_text(g));
  EXPECT_NE(structural_hash(build_graph(ops(5))), structural_hash(g));
}

TEST(JitGraph, HashEqualForEqualStructure) {
  auto a = mlp_ops(64, 0.5), b = mlp_ops(64, 0.01);  // other tensors, other scalar value
  EXPECT_EQ(structural_hash(build_graph(a)), structural_hash(build_graph(b)));
  EXPECT_EQ(to_text(build_graph(a)), to_text(build_graph(b)));
}

TEST(JitGraph, HashDiffersForDifferentStructure) {
  uint64_t base = structural_hash(build_graph(mlp_ops(64)));
  EXPECT_NE(structural_hash(build_graph(mlp_ops(32))), base);
  auto int_alpha = mlp_ops(64);
  int_alpha[1] = pending("add", {int_alpha[1].args[0], int_alpha[1].args[1], int64_t(1)}, int_alpha[1].outs);
  EXPECT_NE(structural_hash(build_graph(int_alpha)), base);  // the scalar input's type is structure

  Tensor x = t({4, 4});
  std::vector<PendingOp> t01{pending("transpose", {x, int64_t(0), int64_t(1)}, {make_view(x, {4, 4}, {1, 4}, 0)})};
  std::vector<PendingOp> t10{pending("transpose", {x, int64_t(1), int64_t(0)}, {make_view(x, {4, 4}, {1, 4}, 0)})};
  EXPECT_NE(structural_hash(build_graph(t01)), structural_hash(build_graph(t10)));  // constants count

  Tensor y = t({4, 4}, DType::Float64);
  std::vector<PendingOp> f64{pending("transpose", {y, int64_t(0), int64_t(1)}, {make_view(y, {4, 4}, {1, 4}, 0)})};
  EXPECT_NE(structural_hash(build_graph(f64)), structural_hash(build_graph(t01)));
}

TEST(JitGraph, HashIsStableAcrossBuildsAndProcesses) {
  auto ops = mlp_ops();
  uint64_t h = structural_hash(build_graph(ops));
  EXPECT_EQ(structural_hash(build_graph(ops)), h);
  // A fixed value: nothing process-specific (pointers, map order) is hashed.
  // Update it only when the serialization changes on purpose (last: dtype numbers,
  // when uint8, int8 and int16 took their places in promotion order).
  EXPECT_EQ(h, 0x14754a841945914bull) << std::hex << "0x" << h;
}

TEST(JitGraph, CollectInputsMatchesBuildOrder) {
  Tensor x = t({4}), y = t({4}), z = t({4}), o1 = t({4}), o2 = t({4}), o3 = t({4});
  std::vector<PendingOp> ops{pending("add", {y, x, 2.0}, {o1}), pending("mul", {o1, z}, {o2}),
                             pending("add_", {x, y, int64_t(3)}, {x}), pending("add", {x, o2, true}, {o3})};
  Graph g = build_graph(ops);
  GraphInputs in = collect_inputs(ops);
  ASSERT_EQ(in.tensors.size(), 3u);
  EXPECT_TRUE(in.tensors[0].is_same(y));
  EXPECT_TRUE(in.tensors[1].is_same(x));
  EXPECT_TRUE(in.tensors[2].is_same(z));
  ASSERT_EQ(g.tensor_inputs.size(), 3u);
  EXPECT_EQ(g.values[size_t(g.tensor_inputs[1])].sizes, x.sizes());
  ASSERT_EQ(in.scalars.size(), 3u);
  EXPECT_EQ(in.scalars[0].to_double(), 2.0);
  EXPECT_EQ(in.scalars[1].to_int(), 3);
  EXPECT_TRUE(in.scalars[2].is_bool());
  EXPECT_EQ(g.scalar_inputs.size(), 3u);
  ASSERT_EQ(g.mutations.size(), 1u);
  EXPECT_EQ(g.mutations[0].first, g.tensor_inputs[1]);
}

TEST(JitGraph, WrongArgumentCountIsAnError) {
  PendingOp p = pending("relu", {t({2})}, {t({2})});
  p.args.push_back(Value(int64_t(1)));
  std::vector<PendingOp> ops{p};
  EXPECT_THROW(build_graph(ops), Error);
}

}  // namespace
}  // namespace kiln::jit

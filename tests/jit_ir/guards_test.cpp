// Signatures of hand-made pending ops: what makes two regions share a compiled
// entry, dynamic dims, and how a failed guard is explained.
#include <gtest/gtest.h>

#include <algorithm>

#include "core/ops.h"
#include "jit/graph.h"
#include "jit/guards.h"
#include "tests/jit_ir/pending_ops.h"

namespace kiln::jit {
namespace {

using lazy::PendingOp;
using What = Guard::What;


Tensor t(Shape sizes, DType d = DType::Float32) { return empty_tensor(sizes, d); }

std::string site_name(uint32_t site) { return site ? "model.py:" + std::to_string(site) : ""; }

// x @ w + b, relu, then an SGD-like in-place update of w scaled by lr.
std::vector<PendingOp> step_ops(int64_t batch = 64, double lr = 0.1, DType dtype = DType::Float32) {
  Tensor x = t({batch, 10}, dtype), w = t({10, 10}), b = t({10});
  Tensor y = t({batch, 10}), z = t({batch, 10}), r = t({batch, 10});
  return {pending("mm", {x, w}, {y}, 12), pending("add", {y, b}, {z}, 13), pending("relu", {z}, {r}, 14),
          pending("add_", {w, w, -lr}, {w}, 15)};
}

Signature sig(const std::vector<PendingOp>& ops, DynamicSpec dynamic = {}) { return make_signature(ops, dynamic); }

size_t count(const Signature& s, What w, uint32_t node, uint16_t arg, uint8_t dim) {
  return size_t(std::count_if(s.guards.begin(), s.guards.end(), [&](const Guard& g) {
    return g.what == uint8_t(w) && g.node == node && g.arg == arg && g.dim == dim;
  }));
}

TEST(JitGuards, SameStructureSameSignature) {
  Signature a = sig(step_ops(64, 0.1)), b = sig(step_ops(64, 0.001));  // new tensors, new lr
  EXPECT_EQ(a.hash, b.hash);
  EXPECT_TRUE(a == b);
  EXPECT_EQ(count(a, What::Op, 0, 0, 0), 1u);
  EXPECT_EQ(count(a, What::InputDim, 0, 0, 0), 1u);   // x's batch size
  EXPECT_EQ(count(a, What::ScalarType, 3, 2, 0), 1u);  // lr: type only
  EXPECT_EQ(count(a, What::ConstValue, 3, 2, 0), 0u);
}

TEST(JitGuards, ShapeChangeChangesSignature) {
  Signature a = sig(step_ops(64)), b = sig(step_ops(32));
  EXPECT_NE(a.hash, b.hash);
  EXPECT_FALSE(a == b);
}

TEST(JitGuards, GuardsFollowTheHeadersContract) {
  Signature s = sig(step_ops());
  const auto& all = op_table().all();
  ASSERT_FALSE(s.guards.empty());
  EXPECT_EQ(all[s.guards[0].value], &op_table().get("mm"));
  // add's self is mm's output 0; add_'s other is its self, input 1 again.
  auto source = [&](uint32_t node, uint16_t arg) {
    for (const Guard& g : s.guards)
      if (g.what == uint8_t(What::Source) && g.node == node && g.arg == arg) return g.value;
    return ~uint64_t(0) - 1;
  };
  EXPECT_EQ(source(1, 0), (uint64_t(0) << 16 | 0) + 1);
  EXPECT_EQ(source(0, 0), 0u);
  EXPECT_EQ(source(3, 1), uint64_t(1) << 63 | 1);
}

TEST(JitGuards, SourceWiringMatters) {
  Tensor x = t({4}), y = t({4});
  std::vector<PendingOp> xy{pending("mul", {x, y}, {t({4})})}, xx{pending("mul", {x, x}, {t({4})})};
  EXPECT_FALSE(sig(xy) == sig(xx));
  auto m = first_mismatch(sig(xy), sig(xx), xx, site_name);
  ASSERT_TRUE(m);
  EXPECT_EQ(m->guard, "`mul` (op 0 of the region), argument `other` (input 0): where the tensor comes from");
  EXPECT_EQ(m->expected, "a new input");
  EXPECT_EQ(m->actual, "input 0 again");
}

TEST(JitGuards, DynamicMaskRemovesTheSizeGuard) {
  DynamicSpec dyn{{1}};  // dim 0 of input 0 (x)
  EXPECT_TRUE(dyn.any());
  EXPECT_FALSE(DynamicSpec{}.any());
  Signature a = sig(step_ops(64), dyn), b = sig(step_ops(32), dyn);
  EXPECT_EQ(count(a, What::InputDim, 0, 0, 0), 0u);
  EXPECT_EQ(count(a, What::InputStride, 0, 0, 0), 0u);
  EXPECT_EQ(count(a, What::InputDim, 0, 0, 1), 1u);
  EXPECT_TRUE(a == b);
  EXPECT_FALSE(a == sig(step_ops(64)));
}

TEST(JitGuards, DynamicLastDimKeepsContiguousStridesEqual) {
  auto ops = [](int64_t n) {
    Tensor x = t({10, n});
    return std::vector<PendingOp>{pending("relu", {x}, {t({10, n})})};
  };
  DynamicSpec dyn{{2}};
  EXPECT_TRUE(sig(ops(5), dyn) == sig(ops(7), dyn));
  // A transposed input is not contiguous: its strides are guarded.
  Tensor base = t({7, 10});
  Tensor xt = make_view(base, {10, 7}, {1, 10}, 0);
  std::vector<PendingOp> strided{pending("relu", {xt}, {t({10, 7})})};
  auto m = first_mismatch(sig(ops(7)), sig(strided), strided, site_name);
  ASSERT_TRUE(m);
  EXPECT_NE(m->guard.find("stride of dim"), std::string::npos) << m->guard;
  EXPECT_EQ(m->expected, "contiguous");
  EXPECT_FALSE(m->only_sizes);
}

TEST(JitGuards, EqualSignaturesHaveNoMismatch) {
  auto ops = step_ops();
  EXPECT_FALSE(first_mismatch(sig(step_ops()), sig(ops), ops, site_name));
}

TEST(JitGuards, SizeMismatchNamesArgumentDimAndFix) {
  auto now = step_ops(32);
  auto m = first_mismatch(sig(step_ops(64)), sig(now), now, site_name);
  ASSERT_TRUE(m);
  EXPECT_EQ(m->guard, "`mm` at model.py:12, argument `self` (input 0): size of dim 0");
  EXPECT_EQ(m->expected, "64");
  EXPECT_EQ(m->actual, "32");
  EXPECT_EQ(m->fix, "torch._dynamo.mark_dynamic(self, 0) makes the dim symbolic");
  EXPECT_TRUE(m->only_sizes);
  EXPECT_EQ(m->size_dims, (std::vector<std::pair<size_t, int>>{{0, 0}}));
}

TEST(JitGuards, OnlySizesListsEveryDifferingDim) {
  auto ops = [](int64_t n, int64_t k) {
    Tensor a = t({n, 10}), b = t({k});
    return std::vector<PendingOp>{pending("relu", {a}, {t({n, 10})}), pending("relu", {b}, {t({k})})};
  };
  auto now = ops(3, 4);
  auto m = first_mismatch(sig(ops(5, 6)), sig(now), now, site_name);
  ASSERT_TRUE(m);
  EXPECT_TRUE(m->only_sizes);
  EXPECT_EQ(m->size_dims, (std::vector<std::pair<size_t, int>>{{0, 0}, {1, 0}}));
}

TEST(JitGuards, SizeAndDTypeChangeIsNotOnlySizes) {
  auto now = step_ops(32, 0.1, DType::Float64);
  auto m = first_mismatch(sig(step_ops(64)), sig(now), now, site_name);
  ASSERT_TRUE(m);
  EXPECT_EQ(m->guard, "`mm` at model.py:12, argument `self` (input 0): dtype");
  EXPECT_FALSE(m->only_sizes);
  EXPECT_TRUE(m->size_dims.empty());
}

TEST(JitGuards, DTypeMismatchHasNoFix) {
  auto now = step_ops(64, 0.1, DType::Float64);
  auto m = first_mismatch(sig(step_ops(64)), sig(now), now, site_name);
  ASSERT_TRUE(m);
  EXPECT_EQ(m->expected, "torch.float32");
  EXPECT_EQ(m->actual, "torch.float64");
  EXPECT_EQ(m->fix, "");
  EXPECT_FALSE(m->only_sizes);
}

TEST(JitGuards, RequiresGradMismatch) {
  auto before = step_ops(), now = step_ops();
  Tensor w = now[0].args[1].tensor();
  w.requires_grad_(true);
  auto m = first_mismatch(sig(before), sig(now), now, site_name);
  ASSERT_TRUE(m);
  EXPECT_EQ(m->guard, "`mm` at model.py:12, argument `mat2` (input 1): requires_grad");
  EXPECT_EQ(m->expected, "False");
  EXPECT_EQ(m->actual, "True");
  EXPECT_EQ(m->fix, "");
}

TEST(JitGuards, ConstantMismatchSuggestsATensor) {
  auto ops = [](int64_t d0) {
    Tensor x = t({4, 4});
    return std::vector<PendingOp>{pending("transpose", {x, d0, int64_t(1)}, {make_view(x, {4, 4}, {1, 4}, 0)}, 7)};
  };
  auto now = ops(1);
  auto m = first_mismatch(sig(ops(0)), sig(now), now, site_name);
  ASSERT_TRUE(m);
  EXPECT_EQ(m->guard, "`transpose` at model.py:7, argument `dim0`: value");
  EXPECT_EQ(m->expected, "0");
  EXPECT_EQ(m->actual, "1");
  EXPECT_NE(m->fix.find("pass the value as a tensor"), std::string::npos) << m->fix;
  EXPECT_FALSE(m->only_sizes);
}

TEST(JitGuards, IntListConstantMismatchNamesTheElement) {
  auto ops = [](Shape size) {
    Tensor x = t({4, 4});
    return std::vector<PendingOp>{pending("view", {x, size}, {make_view(x, size, contiguous_strides(size), 0)})};
  };
  auto now = ops({8, 2});
  auto m = first_mismatch(sig(ops({2, 8})), sig(now), now, site_name);
  ASSERT_TRUE(m);
  EXPECT_EQ(m->guard, "`view` (op 0 of the region), argument `size`, element 0: value");
  EXPECT_EQ(m->expected, "2");
  EXPECT_EQ(m->actual, "8");
}

// A length that changes both an input's size and a Python int taken from it
// (x.view(1, n)): automatic dynamic shapes make both the dim and the int
// argument dynamic, after which every length has the same signature.
TEST(JitGuards, SizeThatIsAlsoAnIntConstantMakesBothDynamic) {
  auto ops = [](int64_t n) {
    Tensor x = t({n});
    Shape size{1, n};
    return std::vector<PendingOp>{pending("view", {x, size}, {make_view(x, size, contiguous_strides(size), 0)}, 9)};
  };
  auto now = ops(6);
  auto m = first_mismatch(sig(ops(5)), sig(now), now, site_name);
  ASSERT_TRUE(m);
  EXPECT_EQ(m->guard, "`view` at model.py:9, argument `self` (input 0): size of dim 0");
  EXPECT_TRUE(m->only_sizes);
  EXPECT_EQ(m->size_dims, (std::vector<std::pair<size_t, int>>{{0, 0}}));
  EXPECT_EQ(m->int_args, (std::vector<std::pair<uint32_t, uint32_t>>{{0, 1}}));

  DynamicSpec dyn{{1}};
  dyn.add_int(0, 1);
  EXPECT_TRUE(dyn.int_arg(0, 1));
  EXPECT_FALSE(dyn.int_arg(0, 0));
  EXPECT_TRUE(sig(ops(5), dyn) == sig(ops(7), dyn));
  // The list's length is still checked: view(1, n) against view(n).
  Tensor x = t({4});
  std::vector<PendingOp> flat{pending("view", {x, Shape{4}}, {make_view(x, {4}, {1}, 0)}, 9)};
  EXPECT_FALSE(sig(ops(4), dyn) == sig(flat, dyn));
}

// An int that names a dim picks what the kernel computes: it is not made dynamic.
TEST(JitGuards, DimArgumentsStaySpecialized) {
  auto ops = [](int64_t n, int64_t d) {
    Tensor x = t({n, 4});
    return std::vector<PendingOp>{pending("sum", {x, Shape{d}, false, Value()}, {t({d == 0 ? 4 : n})}, 3)};
  };
  auto now = ops(6, 1);
  auto m = first_mismatch(sig(ops(5, 0)), sig(now), now, site_name);
  ASSERT_TRUE(m);
  EXPECT_FALSE(m->only_sizes);
}

// A Python int that changes alone (a loop counter used as an index) is made dynamic too.
TEST(JitGuards, ChangedIndexIsADynamicInt) {
  auto ops = [](int64_t i) {
    Tensor x = t({8, 4});
    return std::vector<PendingOp>{pending("select", {x, int64_t(0), i}, {make_view(x, {4}, {1}, i * 4)}, 5)};
  };
  auto now = ops(3);
  auto m = first_mismatch(sig(ops(2)), sig(now), now, site_name);
  ASSERT_TRUE(m);
  EXPECT_TRUE(m->only_sizes);
  EXPECT_TRUE(m->size_dims.empty());
  EXPECT_EQ(m->int_args, (std::vector<std::pair<uint32_t, uint32_t>>{{0, 2}}));
}

TEST(JitGuards, ScalarTypeMismatch) {
  auto ops = [](Value alpha) {
    Tensor a = t({3}), b = t({3});
    return std::vector<PendingOp>{pending("add", {a, b, alpha}, {t({3})}, 3)};
  };
  auto now = ops(0.5);
  EXPECT_TRUE(sig(ops(int64_t(1))) == sig(ops(int64_t(2))));
  auto m = first_mismatch(sig(ops(int64_t(1))), sig(now), now, site_name);
  ASSERT_TRUE(m);
  EXPECT_EQ(m->guard, "`add` at model.py:3, argument `alpha`: type of the Python number");
  EXPECT_EQ(m->expected, "int");
  EXPECT_EQ(m->actual, "float");
  EXPECT_NE(m->fix.find("as a tensor"), std::string::npos);
}

TEST(JitGuards, OpMismatch) {
  auto ops = [](const char* name) {
    Tensor a = t({3});
    return std::vector<PendingOp>{pending("relu", {a}, {t({3})}, 1), pending(name, {a}, {t({3})}, 2)};
  };
  auto now = ops("sigmoid");
  auto m = first_mismatch(sig(ops("relu")), sig(now), now, site_name);
  ASSERT_TRUE(m);
  EXPECT_EQ(m->guard, "`sigmoid` at model.py:2: op");
  EXPECT_EQ(m->expected, "relu");
  EXPECT_EQ(m->actual, "sigmoid");
  EXPECT_FALSE(m->only_sizes);
}

TEST(JitGuards, ShorterRegionIsAnOpCountMismatch) {
  auto full = step_ops(), now = step_ops();
  now.pop_back();
  auto m = first_mismatch(sig(full), sig(now), now, site_name);
  ASSERT_TRUE(m);
  EXPECT_EQ(m->guard, "number of ops in the region");
  EXPECT_EQ(m->expected, "4");
  EXPECT_EQ(m->actual, "3");
  EXPECT_FALSE(m->only_sizes);
}

TEST(JitGuards, TensorListElementsAreGuarded) {
  auto ops = [](int64_t n) {
    Tensor a = t({2, 3}), b = t({n, 3});
    return std::vector<PendingOp>{pending("cat", {std::vector<Tensor>{a, b}, int64_t(0)}, {t({2 + n, 3})})};
  };
  auto now = ops(5);
  Signature before = sig(ops(4));
  EXPECT_EQ(count(before, What::ListLength, 0, 0, 0), 1u);
  auto m = first_mismatch(before, sig(now), now, site_name);
  ASSERT_TRUE(m);
  EXPECT_EQ(m->guard, "`cat` (op 0 of the region), argument `tensors[1]` (input 1): size of dim 0");
  EXPECT_EQ(m->fix, "torch._dynamo.mark_dynamic(tensors[1], 0) makes the dim symbolic");
  EXPECT_TRUE(m->only_sizes);
  EXPECT_EQ(m->size_dims, (std::vector<std::pair<size_t, int>>{{1, 0}}));
}

// More tensors than the per-thread index expects from the op count, and list
// elements past 255 (the guard's dim byte): the index grows, elements are counted.
TEST(JitGuards, LongTensorList) {
  auto ops = [](int64_t last) {
    std::vector<Tensor> list;
    for (int i = 0; i < 299; ++i) list.push_back(t({1, 3}));
    list.push_back(t({last, 3}));
    return std::vector<PendingOp>{pending("cat", {list, int64_t(0)}, {t({299 + last, 3})})};
  };
  auto before = ops(1), now = ops(2);
  Signature a = sig(before), b = sig(ops(1));
  EXPECT_TRUE(a == b);
  EXPECT_EQ(collect_inputs(before).tensors.size(), 300u);
  auto m = first_mismatch(a, sig(now), now, site_name);
  ASSERT_TRUE(m);
  EXPECT_EQ(m->guard, "`cat` (op 0 of the region), argument `tensors[299]` (input 299): size of dim 0");
  EXPECT_EQ(m->size_dims, (std::vector<std::pair<size_t, int>>{{299, 0}}));
}

TEST(JitGuards, NumbersInputsLikeCollectInputs) {
  // The signature's input numbering is the order collect_inputs returns.
  Tensor x = t({4}), y = t({4, 1}), o1 = t({4, 4});
  std::vector<PendingOp> ops{pending("add", {y, x}, {o1})};
  DynamicSpec dyn{{1}};  // dim 0 of input 0, which is y
  Signature s = sig(ops, dyn);
  EXPECT_EQ(count(s, What::InputDim, 0, 0, 0), 0u);  // y's dim 0 is dynamic
  EXPECT_EQ(count(s, What::InputDim, 0, 1, 0), 1u);  // x's is not
}

}  // namespace
}  // namespace kiln::jit

// Every op the op table lowers (OpDef::lower) becomes kernel IR through the
// real fusion pass, and the CUDA C emitted for it compiles with NVRTC. The
// kernels are the ones GPU fusion will produce, so this covers each op's
// lowering on the GPU path; a new lowering without a case here fails.
#include <gtest/gtest.h>

#include <functional>
#include <set>
#include <string>
#include <vector>

#include "core/error.h"
#include "core/ops.h"
#include "jit/fusion.h"
#include "tests/gpu/nvrtc_batch.h"

namespace kiln::gpu {
namespace {

struct Case {
  std::string op;
  std::function<std::vector<Value>(DType)> args;
};

Tensor t(Shape sizes, DType d) { return zeros(sizes, d); }

// One call per lowered op (overloads by full name): x is [4, 8], y [8]
// broadcast over it, so both layouts and a Row domain appear.
std::vector<Case> cases() {
  auto x = [](DType d) { return t({4, 8}, d); };
  auto y = [](DType d) { return t({8}, d); };
  auto unary = [&](const char* op) { return Case{op, [=](DType d) { return std::vector<Value>{x(d)}; }}; };
  auto binary = [&](const char* op) { return Case{op, [=](DType d) { return std::vector<Value>{x(d), y(d)}; }}; };
  std::vector<Case> c = {
      {"add", [=](DType d) { return std::vector<Value>{x(d), y(d), 2.0}; }},
      {"sub", [=](DType d) { return std::vector<Value>{x(d), y(d), 1.0}; }},
      binary("mul"),
      binary("div"),
      binary("pow"),
      {"pow.Tensor_Scalar", [=](DType d) { return std::vector<Value>{x(d), 3.0}; }},
      {"gelu", [=](DType d) { return std::vector<Value>{x(d), "tanh"}; }},
      {"gelu_backward", [=](DType d) { return std::vector<Value>{x(d), x(d), "none"}; }},
      binary("tanh_backward"),
      binary("maximum"),
      binary("minimum"),
      {"clamp", [=](DType d) { return std::vector<Value>{x(d), -1.0, nullptr}; }},  // one bound: see lower_clamp
      {"clamp", [=](DType d) { return std::vector<Value>{x(d), nullptr, 1.0}; }},
      {"where.self", [=](DType d) { return std::vector<Value>{t({4, 8}, DType::Bool), x(d), y(d)}; }},
      {"masked_fill.Scalar", [=](DType d) { return std::vector<Value>{x(d), t({8}, DType::Bool), -1.0}; }},
      {"masked_fill.Tensor",
       [=](DType d) { return std::vector<Value>{x(d), t({4, 8}, DType::Bool), scalar_tensor(2, DType::Float64, true)}; }},
      {"_to_copy", [=](DType d) { return std::vector<Value>{x(d), DType::Float64}; }},
      binary("copy"),
      {"fill", [=](DType d) { return std::vector<Value>{x(d), 0.5}; }},
      {"sum", [=](DType d) { return std::vector<Value>{x(d), Shape{-1}}; }},
      {"mean", [=](DType d) { return std::vector<Value>{x(d), Shape{-1}}; }},
      {"amax", [=](DType d) { return std::vector<Value>{x(d), Shape{-1}}; }},
      {"amin", [=](DType d) { return std::vector<Value>{x(d), Shape{-1}}; }},
      {"softmax", [=](DType d) { return std::vector<Value>{x(d), -1}; }},
      {"log_softmax", [=](DType d) { return std::vector<Value>{x(d), -1}; }},
      {"native_layer_norm", [=](DType d) { return std::vector<Value>{x(d), Shape{8}, y(d), y(d), 1e-5}; }},
      // Gathers: indices (zeros: in range) select rows, classes, elements.
      {"embedding", [=](DType d) { return std::vector<Value>{x(d), t({2, 3}, DType::Int64)}; }},
      {"index_select", [=](DType d) { return std::vector<Value>{x(d), 1, t({5}, DType::Int64)}; }},
      {"gather", [=](DType d) { return std::vector<Value>{x(d), 0, t({4, 8}, DType::Int64)}; }},
      {"embedding_dense_backward",
       [=](DType d) { return std::vector<Value>{t({2, 3, 8}, d), t({2, 3}, DType::Int64), 10, -1, false}; }},
      {"nll_loss_forward",
       [=](DType d) { return std::vector<Value>{x(d), t({4}, DType::Int64), y(d), 1, -100}; }},
      {"nll_loss_grad",
       [=](DType d) {
         return std::vector<Value>{t({4}, d), t({4}, DType::Int64), y(d), Shape{4, 8}, 0, -100, t({}, d)};
       }},
      // The domain index.
      {"arange", [=](DType d) { return std::vector<Value>{5.0, d}; }},
      {"arange.start", [=](DType d) { return std::vector<Value>{1.0, 9.0, 2.0, d}; }},
      {"tril", [=](DType d) { return std::vector<Value>{x(d), 1}; }},
      {"triu", [=](DType d) { return std::vector<Value>{x(d), -1}; }},
  };
  for (const char* op : {"neg", "abs", "relu", "silu", "exp", "log", "log1p", "sqrt", "rsqrt", "sin", "cos",
                         "tanh", "sigmoid", "erf", "logical_not", "clone", "zero", "sign"})
    c.push_back(unary(op));
  for (const char* op : {"eq", "ne", "lt", "le", "gt", "ge"})
    c.push_back(binary(op));
  // core/ops/pointwise_math.cpp
  for (const char* op : {"floor", "ceil", "trunc", "round", "fix", "frac", "reciprocal", "isnan", "isinf", "isposinf",
                         "isneginf", "isfinite", "signbit", "nan_to_num", "bitwise_not", "exp2", "log2", "log10",
                         "absolute", "negative", "sgn"})
    c.push_back(unary(op));
  for (const char* op : {"clamp_min.Tensor", "clamp_max.Tensor", "logical_and", "logical_or", "logical_xor",
                         "bitwise_and", "bitwise_or", "bitwise_xor", "logaddexp", "logaddexp2", "xlogy", "heaviside",
                         "multiply", "divide", "greater", "greater_equal", "less", "less_equal", "not_equal"})
    c.push_back(binary(op));
  c.push_back({"round.decimals", [=](DType d) { return std::vector<Value>{x(d), int64_t(-2)}; }});
  c.push_back({"clamp_min", [=](DType d) { return std::vector<Value>{x(d), -1.0}; }});
  c.push_back({"clamp_max", [=](DType d) { return std::vector<Value>{x(d), 1.0}; }});
  c.push_back({"clip", [=](DType d) { return std::vector<Value>{x(d), nullptr, 1.0}; }});
  c.push_back({"subtract", [=](DType d) { return std::vector<Value>{x(d), y(d), 2.0}; }});
  c.push_back({"lerp.Tensor", [=](DType d) { return std::vector<Value>{x(d), y(d), y(d)}; }});
  c.push_back({"lerp.Scalar", [=](DType d) { return std::vector<Value>{x(d), y(d), 0.3}; }});
  // A product lowers only with an inner size of 1 (an outer product).
  c.push_back({"mm", [=](DType d) { return std::vector<Value>{t({4, 1}, d), t({1, 8}, d)}; }});
  c.push_back({"addcmul", [=](DType d) { return std::vector<Value>{x(d), y(d), y(d), 0.5}; }});
  c.push_back({"addcdiv", [=](DType d) { return std::vector<Value>{x(d), y(d), y(d), 0.5}; }});
  return c;
}

// The op applied to `args` as a one-node graph, fused with its output live.
std::vector<kir::Kernel> kernels_of(const OpDef& op, std::vector<Value> positional) {
  std::vector<Value> args = bind_args(op.schema, positional, {}, /*all_positional=*/true);
  const std::vector<Shape> shapes = op.shape(args);
  const std::vector<DType> dtypes = op.dtype(args);
  std::vector<Tensor> outs;
  for (size_t i = 0; i < shapes.size(); ++i) outs.push_back(empty_tensor(shapes[i], dtypes[i]));
  std::vector<lazy::PendingOp> ops = {{&op, std::move(args), std::move(outs), 0}};
  jit::Graph g = jit::build_graph(ops);
  jit::FusionPlan p = jit::fuse(g, ops, std::vector<bool>(g.values.size(), true));
  std::vector<kir::Kernel> out;
  for (jit::FusedKernel& k : p.kernels) out.push_back(std::move(k.kernel));
  return out;
}

TEST(CudaCodegenOps, EveryLoweredOpHasACase) {
  std::set<std::string> covered;
  for (const Case& c : cases()) covered.insert(c.op);
  for (const OpDef* op : op_table().all()) {
    const bool needs_case = op->lower && !op->is_inplace();
    EXPECT_TRUE(!needs_case || covered.count(op->name())) << op->name() << " has no case";
  }
  for (const std::string& name : covered) EXPECT_NE(op_table().find(name), nullptr) << name;
}

TEST(CudaCodegenOps, EveryLoweringCompiles) {
  std::string why;
  if (!nvrtc_available(&why)) GTEST_SKIP() << "NVRTC: " << why;
  test::NvrtcBatch batch;
  int n = 0;
  for (const Case& c : cases()) {
    const OpDef* op = op_table().find(c.op);
    if (!op) continue;  // reported by EveryLoweredOpHasACase
    int fused = 0;
    for (DType d : {DType::Float32, DType::Float64, DType::Int32, DType::Int64, DType::Bool}) {
      std::vector<kir::Kernel> ks;
      try {
        ks = kernels_of(*op, c.args(d));
      } catch (const Error&) {
        continue;  // the op rejects this dtype (as PyTorch does)
      }
      for (kir::Kernel& k : ks) {
        batch.add(std::move(k), "op_kernel_" + std::to_string(n++));
        ++fused;
      }
    }
    EXPECT_GT(fused, 0) << c.op << " lowers to no kernel for any dtype";
  }
  EXPECT_GE(n, 40);
  EXPECT_TRUE(batch.compile({.arch = "sm_90"}));
  EXPECT_TRUE(batch.compile({.arch = "compute_90"}));
}

}  // namespace
}  // namespace kiln::gpu

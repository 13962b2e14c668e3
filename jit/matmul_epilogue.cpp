#include "jit/matmul_epilogue.h"

#include <algorithm>
#include <optional>

#include "core/ops/onednn_matmul.h"
#include "core/small_vector.h"
#include "jit/passes/analysis.h"

namespace kiln::jit {

namespace {

using ops::MatmulPostOp;

// Matches one mm step against the kernel after it, on the optimized graph.
class Matcher {
 public:
  Matcher(const Graph& g, const std::vector<bool>& live, const FusionPlan& plan)
      : g_(g), live_(live), plan_(plan), uses_(passes::count_reads(g)) {
    // Where each node runs: its own step, or its kernel's.
    pos_.assign(g.nodes.size(), -1);
    for (size_t s = 0; s < plan.steps.size(); ++s) {
      const int32_t step = plan.steps[s];
      if (step >= 0) {
        pos_[size_t(step)] = int32_t(s);
        continue;
      }
      for (int32_t n : plan.kernels[size_t(-1 - step)].nodes) pos_[size_t(n)] = int32_t(s);
    }
  }

  // The epilogue of the mm at step `s`, if the steps after it allow one.
  std::optional<MatmulEpilogue> at(size_t s) const {
    const int32_t mm = plan_.steps[s];
    const Node& node = g_.nodes[size_t(mm)];
    if (node.op->name() != "mm" || node.rewritten || !float32(node.outs[0]) || live(node.outs[0])) return {};
    // The product and views of it that only lead on to the kernel.
    std::vector<ValueId> product{node.outs[0]};
    size_t k = s + 1;
    for (; k < plan_.steps.size() && plan_.steps[k] >= 0; ++k) {
      const Node& v = g_.nodes[size_t(plan_.steps[k])];
      if (v.op->kind != OpKind::View) return {};  // only views, which touch no data, may sit between
      if (v.args.empty() || v.args[0].kind != NodeArg::Kind::Tensor || !contains(product, v.args[0].value)) continue;
      if (live(v.outs[0])) return {};
      product.push_back(v.outs[0]);
    }
    if (k == plan_.steps.size()) return {};
    MatmulEpilogue e{.mm = mm, .kernel = -1 - plan_.steps[k]};
    if (!chain(e, product, s)) return {};
    return e;
  }

 private:
  bool float32(ValueId v) const { return g_.values[size_t(v)].dtype == DType::Float32; }
  bool live(ValueId v) const { return size_t(v) < live_.size() && live_[size_t(v)]; }
  static bool contains(const std::vector<ValueId>& vs, ValueId v) { return std::ranges::find(vs, v) != vs.end(); }

  // Whether value v holds its data before step s runs (views: their base's).
  bool ready_before(ValueId v, size_t s) const {
    const IrValue& iv = g_.values[size_t(v)];
    if (iv.kind != IrValue::Kind::NodeOutput) return true;
    const Node& n = g_.nodes[size_t(iv.node)];
    if (n.op->kind == OpKind::View && !n.args.empty() && n.args[0].kind == NodeArg::Kind::Tensor &&
        n.args[0].value >= 0)
      return ready_before(n.args[0].value, s);
    return pos_[size_t(iv.node)] >= 0 && size_t(pos_[size_t(iv.node)]) < s;
  }

  // The kernel's nodes as adds and relus over the product, each reading the
  // one before; the product and its views read by nothing else.
  bool chain(MatmulEpilogue& e, const std::vector<ValueId>& product, size_t s) const {
    const FusedKernel& fk = plan_.kernels[size_t(e.kernel)];
    const kir::Kernel& k = fk.kernel;
    if (k.kind != kir::Kind::Pointwise || k.stores.size() != 1 || k.scatters() || !fk.zero_first.empty()) return false;
    size_t product_uses = product.size() - 1;  // each view reads the one before it
    std::vector<ValueId> current = product;
    for (int32_t n : fk.nodes) {
      const Node& node = g_.nodes[size_t(n)];
      if (node.outs.size() != 1 || !float32(node.outs[0])) return false;
      auto reads = [&](size_t i) {
        return node.args.size() > i && node.args[i].kind == NodeArg::Kind::Tensor && contains(current, node.args[i].value);
      };
      const std::string& op = node.op->name();
      if (op == "relu" && reads(0)) {
        e.ops.push_back({.kind = EpilogueOp::Kind::Relu, .node = n});
      } else if (op == "add" && node.args.size() == 3 && reads(0) != reads(1)) {
        const NodeArg& other = node.args[reads(0) ? 1 : 0];
        if (other.kind != NodeArg::Kind::Tensor || other.value < 0 || !float32(other.value) ||
            !ready_before(other.value, s))
          return false;
        e.ops.push_back({.kind = EpilogueOp::Kind::Add, .node = n, .other = ref_of(g_, other.value)});
      } else {
        return false;
      }
      if (e.ops.size() == 1) {
        const ValueId read = node.args[reads(0) ? 0 : 1].value;
        e.product = ref_of(g_, read);
        product_uses += 1;
      }
      current = {node.outs[0]};
    }
    size_t uses = 0;
    for (ValueId v : product) uses += uses_[size_t(v)];
    const TensorRef& stored = fk.operands[size_t(k.stores[0].operand)].tensor;
    e.out = stored;
    return uses == product_uses && stored.node == fk.nodes.back() && stored.out == 0;
  }

  const Graph& g_;
  const std::vector<bool>& live_;
  const FusionPlan& plan_;
  std::vector<int32_t> uses_;  // per value: reads by nodes not dead
  std::vector<int32_t> pos_;   // per node: the step that runs it
};

// An add's other operand as a post-op: a bias over the columns or a dense
// tensor of the output's shape; nullopt for any other broadcast.
std::optional<MatmulPostOp> add_of(const Tensor& other, const Tensor& out) {
  if (!other.defined() || other.dtype() != DType::Float32 || other.device().type != DeviceType::CPU) return {};
  const auto* data = static_cast<const float*>(other.raw_data());
  if (other.sizes() == out.sizes() && other.is_contiguous()) return MatmulPostOp{MatmulPostOp::Kind::AddFull, data};
  const int64_t n = out.sizes().back();
  if (other.dim() == 0 || other.dim() > out.dim() || other.sizes().back() != n || (n > 1 && other.strides().back() != 1))
    return {};
  for (int64_t d = 0; d + 1 < other.dim(); ++d)
    if (other.size(d) != 1) return {};
  return MatmulPostOp{MatmulPostOp::Kind::AddRow, data};
}

}  // namespace

void plan_matmul_epilogues(const Graph& g, const std::vector<bool>& live, FusionPlan& plan) {
  plan.epilogues.clear();
  plan.epilogue_of.clear();
  Matcher match(g, live, plan);
  for (size_t s = 0; s < plan.steps.size(); ++s) {
    if (plan.steps[s] < 0) continue;
    std::optional<MatmulEpilogue> e = match.at(s);
    if (!e) continue;
    if (plan.epilogue_of.empty()) plan.epilogue_of.assign(g.nodes.size(), -1);
    plan.epilogue_of[size_t(e->mm)] = int32_t(plan.epilogues.size());
    plan.epilogues.push_back(std::move(*e));
  }
}

bool run_matmul_epilogue(const MatmulEpilogue& e, std::span<const lazy::PendingOp> ops) {
  const lazy::PendingOp& mm = ops[size_t(e.mm)];
  const Tensor& a = mm.args[0].tensor();
  const Tensor& b = mm.args[1].tensor();
  const Tensor& product = resolve(e.product, ops);
  const Tensor& out = resolve(e.out, ops);
  const Tensor& result = mm.outs[0];
  // The kernel's domain must be the product's elements in its row-major order.
  if (!out.defined() || out.dtype() != DType::Float32 || !out.is_contiguous() || out.dim() == 0 ||
      out.numel() != result.numel() || out.sizes().back() != result.size(1) || !product.is_contiguous() ||
      product.sizes() != out.sizes() || product.storage() != result.storage() || product.offset() != result.offset())
    return false;
  SmallVec<MatmulPostOp, 4> post;
  for (const EpilogueOp& op : e.ops) {
    if (op.kind == EpilogueOp::Kind::Relu) {
      post.push_back({MatmulPostOp::Kind::Relu});
      continue;
    }
    const Value& alpha = ops[size_t(op.node)].args[2];
    if (!alpha.is_number() || alpha.to_double() != 1.0) return false;
    std::optional<MatmulPostOp> add = add_of(resolve(op.other, ops), out);
    if (!add) return false;
    post.push_back(*add);
  }
  return ops::mm_with_post_ops(a, b, static_cast<float*>(out.raw_data()), {post.data(), post.size()});
}

}  // namespace kiln::jit

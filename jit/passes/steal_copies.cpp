// Copy elision by taking memory.
//
// Autograd clones each leaf's first gradient into .grad (it must not alias a
// tensor someone else holds), so every weight gradient a graph computes is
// computed once and copied once. When the copied value dies with the graph
// (no Python variable, autograd node or input refers to its memory) and no
// later node writes either (later reads of the source move to the clone,
// which holds the same values), the copy is unobservable: the
// executor may give the clone's output the source's buffer instead of
// copying it (jit/compiled_graph.cpp, steal_copy), as PyTorch's
// AccumulateGrad steals a gradient nobody else holds.
//
// This pass only marks the clones where that is sound for the graph; the
// executor still checks each run's tensors (whole storage, same contiguous
// layout, heap memory, no later op reaching the source's memory through a
// tensor input, as a detached alias does) and copies when they do not fit,
// so dynamic dims, odd layouts and aliases the graph cannot see stay correct.
#include "jit/passes/analysis.h"
#include "jit/passes/passes.h"

namespace kiln::jit {

namespace {

// The value whose node allocated v's memory: through views to their base.
ValueId base_of(const Graph& g, ValueId v) {
  for (int32_t d = passes::def_node(g, v); d >= 0 && g.nodes[size_t(d)].op->kind == OpKind::View;
       d = passes::def_node(g, v)) {
    const NodeArg& src = g.nodes[size_t(d)].args[0];
    if (src.kind != NodeArg::Kind::Tensor || src.value < 0) return -1;
    v = src.value;
  }
  return v;
}

// Whether every touch of memory v may share, after node `after`, is a read of
// v itself that can be pointed elsewhere: no writes, no views, no aliases.
bool only_movable_reads_after(const Graph& g, const passes::Storages& st, ValueId v, int32_t after) {
  for (int32_t k = after + 1; k < int32_t(g.nodes.size()); ++k) {
    const Node& n = g.nodes[size_t(k)];
    if (n.dead) continue;
    for (size_t i = 0; i < n.args.size(); ++i) {
      const NodeArg& a = n.args[i];
      const bool movable = passes::rewritable_arg(n, i);
      if (a.kind == NodeArg::Kind::Tensor && a.value >= 0 && st.may_share(a.value, v) &&
          (a.value != v || !movable))
        return false;
      for (ValueId e : a.list)
        if (e >= 0 && st.may_share(e, v) && (e != v || !movable)) return false;
    }
    for (ValueId o : n.outs)
      if (st.may_share(o, v)) return false;
  }
  return true;
}

// A tensor small enough to live in its Storage's inline bytes, which cannot
// move: the executor would copy it anyway, so fusion may as well store it.
bool inline_sized(const IrValue& v) {
  int64_t n = 1;
  for (int64_t d : v.sizes) n *= d;
  return v.dynamic_dims == 0 && size_t(n) * dtype_size(v.dtype) <= Storage::kInlineBytes;
}

// Whether v is a product with a static inner size of 1: the only products
// fusion lowers (core/ops/blas.cpp, lower_mm), as a broadcast multiply.
bool outer_product(const Graph& g, ValueId v) {
  const int32_t d = passes::def_node(g, v);
  if (d < 0 || g.nodes[size_t(d)].op->name() != "mm") return false;
  const NodeArg& self = g.nodes[size_t(d)].args[0];
  if (self.kind != NodeArg::Kind::Tensor || self.value < 0) return false;
  const IrValue& a = g.values[size_t(self.value)];
  return a.sizes.size() == 2 && a.sizes[1] == 1 && !(a.dynamic_dims & 2);
}

// Whether v's node may join a fused kernel (it has a lowering).
bool fusable(const Graph& g, ValueId v) {
  const int32_t d = passes::def_node(g, v);
  if (d < 0) return false;
  const OpDef* op = g.nodes[size_t(d)].op;
  if (op->name() == "mm") return outer_product(g, v);
  return (op->is_inplace() ? op->functional : op)->lower != nullptr;
}

bool reads_after(const Graph& g, ValueId v, int32_t after) {
  for (int32_t k = after + 1; k < int32_t(g.nodes.size()); ++k) {
    const Node& n = g.nodes[size_t(k)];
    if (n.dead) continue;
    for (const NodeArg& a : n.args) {
      if (a.kind == NodeArg::Kind::Tensor && a.value == v) return true;
      for (ValueId e : a.list)
        if (e == v) return true;
    }
  }
  return false;
}

}  // namespace

void mark_stealable_copies(Graph& g, const std::vector<bool>& live) {
  const passes::Storages st(g, passes::InputAliases::CheckedAtRun);
  for (int32_t c = 0; c < int32_t(g.nodes.size()); ++c) {
    Node& n = g.nodes[size_t(c)];
    if (n.dead || n.op->name() != "clone" || n.op->is_inplace() || n.outs.size() != 1) continue;
    if (n.args.empty() || n.args[0].kind != NodeArg::Kind::Tensor || n.args[0].value < 0) continue;
    const ValueId src = n.args[0].value;
    const ValueId base = base_of(g, src);
    if (base < 0 || !passes::fresh_contiguous(g, base)) continue;
    // A transposing copy (.contiguous() of a permuted view) moves data: left
    // to fusion, where it may join its neighbours' kernel.
    if (g.values[size_t(src)].dynamic_dims == 0 && !contiguous(g.values[size_t(src)])) continue;
    if (passes::is_live(live, base) || passes::is_live(live, src)) continue;
    if (st.written_between(src, c) || st.written_between(n.outs[0], c) || inline_sized(g.values[size_t(n.outs[0])]))
      continue;
    if (!only_movable_reads_after(g, st, src, c)) continue;
    // Later reads of the source (forward_copies pointed the optimizer's reads
    // of .grad there) move to the clone: neither is written again, so they
    // read the same values, and the source's buffer is then free to take.
    // Only behind an eager producer (a gemm): a fused one would store the
    // copy in the same pass, and an eager clone would split that kernel.
    // An outer product (a batch-1 weight gradient) is never taken: fused,
    // its kernel stores the clone and applies the optimizer's update (which
    // reads .grad) in the same pass, where taking it would cost a second one.
    if (outer_product(g, base) || (fusable(g, base) && reads_after(g, src, c))) continue;
    passes::rewrite_reads(g, src, n.outs[0], c, [](int32_t) { return true; });
    n.steal_source = true;
  }
}

}  // namespace kiln::jit

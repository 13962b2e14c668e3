// Copy elision by taking memory.
//
// Autograd clones each leaf's first gradient into .grad (it must not alias a
// tensor someone else holds), so every weight gradient a graph computes is
// computed once and copied once. When the copied value dies with the graph
// (no Python variable, autograd node or input refers to its memory) and no
// later node reads or writes that memory, the copy is unobservable: the
// executor may give the clone's output the source's buffer instead of
// copying it (jit/compiled_graph.cpp, steal_copy), as PyTorch's
// AccumulateGrad steals a gradient nobody else holds.
//
// This pass only marks the clones where that is sound for the graph; the
// executor still checks each run's tensors (whole storage, same contiguous
// layout, heap memory) and copies when they do not fit, so dynamic dims and
// odd layouts stay correct.
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

// Whether a node other than `self` after `after` touches memory v may share.
bool touched_after(const Graph& g, const passes::Storages& st, ValueId v, int32_t after) {
  for (int32_t k = after + 1; k < int32_t(g.nodes.size()); ++k) {
    const Node& n = g.nodes[size_t(k)];
    if (n.dead) continue;
    for (const NodeArg& a : n.args) {
      if (a.kind == NodeArg::Kind::Tensor && a.value >= 0 && st.may_share(a.value, v)) return true;
      for (ValueId e : a.list)
        if (e >= 0 && st.may_share(e, v)) return true;
    }
    for (ValueId o : n.outs)
      if (st.may_share(o, v)) return true;
  }
  return false;
}

}  // namespace

void mark_stealable_copies(Graph& g, const std::vector<bool>& live) {
  const passes::Storages st(g);
  const std::vector<bool> aliased = passes::maybe_read_through_input(g);
  for (int32_t c = 0; c < int32_t(g.nodes.size()); ++c) {
    Node& n = g.nodes[size_t(c)];
    if (n.dead || n.op->name() != "clone" || n.op->is_inplace() || n.outs.size() != 1) continue;
    if (n.args.empty() || n.args[0].kind != NodeArg::Kind::Tensor || n.args[0].value < 0) continue;
    const ValueId src = n.args[0].value;
    const ValueId base = base_of(g, src);
    if (base < 0 || !passes::fresh_contiguous(g, base)) continue;
    if (passes::is_live(live, base) || passes::is_live(live, src)) continue;
    if (aliased[size_t(base)] || aliased[size_t(src)] || touched_after(g, st, src, c)) continue;
    n.steal_source = true;
  }
}

}  // namespace kiln::jit

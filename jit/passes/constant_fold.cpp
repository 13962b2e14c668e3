// Constant folding, as far as this IR allows it.
//
// Folding a computation needs values known when the graph compiles. Here the
// only ones are creation results with constant arguments (zeros, ones, eye,
// zeros_like, ...): every Python number, a fill value or an arange bound
// included, is a graph input that the next run may change, and random ops
// run before the graph (their results are inputs). So nothing with a Python
// number in it folds, and what remains (a computation on creation results
// alone, `ones(3) * 2` with 2 a constant) does not occur in model code.
// Folding it would need a constant pool, and would not save work either:
// every node's outputs are tensors allocated per run that the script may
// hold, so a folded result would still be copied into each run's output.
// Creation results that fused consumers read are fusion's to lower as
// constants (no store, no load), not a pass's.
//
// What is sound and saves work: a creation result overwritten before anyone
// reads it. `zeros(n)` followed by `fill_(v)`, `zero_()` or `copy_(src)` on
// it, with no other reader in between, computes the zeros for nothing: the
// creation becomes dead and the overwrite writes into the allocated memory.
// The overwrite is an in-place node, so it always runs. The passes' rules
// keep every live value's node (passes/passes.h), so this applies only when
// the buffer is not live, although a later version would replace its
// contents anyway.
#include "jit/passes/analysis.h"
#include "jit/passes/passes.h"

namespace kiln::jit {

namespace {

// In-place ops that write every element of self without reading it.
bool overwrites_self(const Node& n) {
  if (!n.op->is_inplace()) return false;
  const std::string& f = n.op->functional->name();
  return f == "fill" || f == "zero" || f == "copy";
}

}  // namespace

void fold_constants(Graph& g, const std::vector<bool>& live) {
  std::vector<int32_t> reads = passes::count_reads(g);
  std::vector<bool> hidden = passes::maybe_read_through_input(g);
  // The only reader of each value, when it has exactly one read.
  std::vector<int32_t> reader(g.values.size(), -1);
  for (size_t i = 0; i < g.nodes.size(); ++i) {
    const Node& n = g.nodes[i];
    if (n.dead) continue;
    for (const NodeArg& a : n.args) {
      if (a.kind == NodeArg::Kind::Tensor && a.value >= 0) reader[size_t(a.value)] = int32_t(i);
      for (ValueId e : a.list)
        if (e >= 0) reader[size_t(e)] = int32_t(i);
    }
  }
  for (Node& c : g.nodes) {
    if (c.dead || c.op->kind != OpKind::Creation || c.outs.size() != 1 || !passes::removable(g, c)) continue;
    ValueId z = c.outs[0];
    if (passes::is_live(live, z) || hidden[size_t(z)] || reads[size_t(z)] != 1) continue;
    const Node& w = g.nodes[size_t(reader[size_t(z)])];
    if (overwrites_self(w) && w.args[0].value == z) c.dead = true;
  }
}

}  // namespace kiln::jit

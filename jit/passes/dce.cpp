// Dead code elimination: a node none of whose outputs is observable after
// the graph, read by a node that runs, or possibly read through a tensor
// input that aliases it (passes/analysis.h), need not run.
//
// Nodes that write existing memory (in-place ops, new versions of a tensor)
// and random draws always run; a dead view costs nothing but is dropped too,
// which may free the node it views. One backward sweep suffices: a value is
// only read after its node.
#include "jit/passes/analysis.h"
#include "jit/passes/passes.h"

namespace kiln::jit {

void eliminate_dead_code(Graph& g, const std::vector<bool>& live) {
  std::vector<int32_t> reads = passes::count_reads(g);
  std::vector<bool> pinned = passes::maybe_read_through_input(g);
  for (auto [input, last] : g.mutations) pinned[size_t(input)] = pinned[size_t(last)] = true;
  for (size_t i = g.nodes.size(); i-- > 0;) {
    Node& n = g.nodes[i];
    if (n.dead || !passes::removable(g, n)) continue;
    bool needed = false;
    for (ValueId o : n.outs) needed |= passes::is_live(live, o) || pinned[size_t(o)] || reads[size_t(o)] > 0;
    if (needed) continue;
    n.dead = true;
    for (const NodeArg& a : n.args) {
      if (a.kind == NodeArg::Kind::Tensor && a.value >= 0) --reads[size_t(a.value)];
      for (ValueId e : a.list)
        if (e >= 0) --reads[size_t(e)];
    }
  }
}

}  // namespace kiln::jit

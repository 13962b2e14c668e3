// Functionalization cleanup.
//
// PyTorch's functionalization rewrites in-place ops into functional ones and
// leaves artifacts to clean up: copies back into mutated inputs, clones and
// views replayed around mutations. This tracer leaves none of them: in-place
// ops stay in-place nodes (writing where the script wrote), the graph only
// versions them (jit/graph.h), and inputs' final versions are listed, not
// copied back. Fusion lowers an in-place node through its functional op
// already. So the cleanup that remains is forwarding through in-place
// copies: after `dst.copy_(src)` with src's dtype and layout (no cast, no
// broadcast), readers of dst read src instead, which lets src stay in
// registers in a fused kernel and frees the reader from waiting on dst. The
// copy itself still runs (an in-place node always does).
//
// Sound when the memory holds still: src and dst cannot overlap, nothing
// writes src after the copy read it, nothing writes dst after the copy, ever (fusion may run a reader later
// than its node). Only in graphs without dynamic dims: the layouts are
// compared on the example sizes.
#include "jit/passes/analysis.h"
#include "jit/passes/passes.h"

namespace kiln::jit {

void forward_copies(Graph& g) {
  if (passes::has_dynamic_dims(g)) return;
  passes::Storages storages(g);
  for (int32_t c = 0; c < int32_t(g.nodes.size()); ++c) {
    const Node& n = g.nodes[size_t(c)];
    if (n.dead || !n.op->is_inplace() || n.op->functional->name() != "copy" || n.outs.size() != 1) continue;
    if (n.args[1].kind != NodeArg::Kind::Tensor || n.args[1].value < 0) continue;
    ValueId dst = n.outs[0], src = n.args[1].value;
    if (!passes::same_layout(g, dst, src) || storages.may_share(src, dst) || storages.written_between(src, c) ||
        storages.written_between(dst, c))
      continue;
    passes::rewrite_reads(g, dst, src, c, [](int32_t) { return true; });
  }
}

}  // namespace kiln::jit

#include "jit/passes/passes.h"

namespace kiln::jit {

// Rewrites first, so that CSE sees through copies, identities and views;
// dead code elimination next, to drop what the others left unread; copies
// are marked for stealing last, when no dead reader can hold them back.
void optimize(Graph& g, const std::vector<bool>& live) {
  forward_copies(g);
  simplify_algebra(g);
  eliminate_common_subexpressions(g, live);
  fold_constants(g, live);
  eliminate_dead_code(g, live);
  mark_stealable_copies(g, live);
}

}  // namespace kiln::jit

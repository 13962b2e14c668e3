#include "jit/passes/passes.h"

namespace kiln::jit {

// Rewrites first, so that CSE sees through copies, identities and views, and
// dead code elimination last, to drop what the others left unread.
void optimize(Graph& g, const std::vector<bool>& live) {
  forward_copies(g);
  simplify_algebra(g);
  eliminate_common_subexpressions(g, live);
  fold_constants(g, live);
  eliminate_dead_code(g, live);
}

}  // namespace kiln::jit

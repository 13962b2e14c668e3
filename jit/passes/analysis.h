// What the graph passes know about a graph beyond its SSA edges: which
// values may share memory, which nodes write memory that already existed,
// who reads a value, and whether a value may be read behind the graph's back.
//
// Values are versions of storages, so an SSA value is only as good as the
// memory under it: a write through any alias (a view, a later version, a
// tensor input that shares the storage) changes what reading it yields,
// without a new value id. Passes that move a read from one value to another
// ask these facts first.
#pragma once

#include <cstdint>
#include <limits>
#include <vector>

#include "jit/graph.h"

namespace kiln::jit::passes {

inline bool is_live(const std::vector<bool>& live, ValueId v) {
  return v >= 0 && size_t(v) < live.size() && live[size_t(v)];
}

// The node that defines v; -1 for graph inputs.
int32_t def_node(const Graph& g, ValueId v);

// Whether node n writes memory some earlier value owns: an in-place op, or
// an output the builder saw as a new version of an existing tensor.
bool writes_existing(const Graph& g, const Node& n);

// Whether skipping node n can only lose its outputs: it writes no existing
// memory, draws no random numbers, and is an op kind without side effects.
bool removable(const Graph& g, const Node& n);

// A node output that a tensor input may alias without any node saying so:
// `y.detach()` (and autograd's saved outputs, which are detached) shares y's
// storage through a new tensor the graph sees as an input. The graph keeps
// no storage identity, so this is a conservative stand-in: a tensor input
// first used after v's node, with v's dtype and sizes (a detach keeps both),
// may be such an alias; for a view, the value it views is what such a read
// needs. Liveness (jit/liveness.cpp) does not count these reads either; when
// the graph records real storage sharing, this goes.
std::vector<bool> maybe_read_through_input(const Graph& g);

// Whether Storages counts maybe_read_through_input's possible aliases as
// sharing: a caller that checks each run's real tensors instead (the
// executor's steal_copy) may leave them out.
enum class InputAliases { Assumed, CheckedAtRun };

// Which values may share memory, and the nodes that write each group.
class Storages {
 public:
  explicit Storages(const Graph& g, InputAliases aliases = InputAliases::Assumed);
  static constexpr int32_t kEnd = std::numeric_limits<int32_t>::max();
  // Whether a node strictly between `after` and `before` writes memory that
  // v may share.
  bool written_between(ValueId v, int32_t after, int32_t before = kEnd) const;
  bool may_share(ValueId a, ValueId b) const { return root(a) == root(b); }

 private:
  int32_t root(ValueId v) const;
  void unite(ValueId a, ValueId b);
  mutable std::vector<int32_t> parent_;
  std::vector<std::vector<int32_t>> writers_;  // per root: writing nodes, ascending
};

// Per value: how many reads by non-dead nodes (each argument slot counts).
std::vector<int32_t> count_reads(const Graph& g);

// Whether argument `arg` of node u may be redirected to another value: not a
// view's input (its output would alias other memory), not an in-place
// node's self.
bool rewritable_arg(const Node& u, size_t arg);

// Points the rewritable reads of `from` in non-dead nodes after `first` at
// `to` (marking those nodes rewritten), where `allow(node index)` agrees.
// Returns how many reads moved.
template <class Allow>
int rewrite_reads(Graph& g, ValueId from, ValueId to, int32_t first, Allow allow) {
  int moved = 0;
  for (int32_t u = first + 1; u < int32_t(g.nodes.size()); ++u) {
    Node& n = g.nodes[size_t(u)];
    if (n.dead) continue;
    for (size_t a = 0; a < n.args.size(); ++a) {
      NodeArg& arg = n.args[a];
      bool reads = arg.kind == NodeArg::Kind::Tensor && arg.value == from;
      for (ValueId e : arg.list) reads |= e == from;
      if (!reads || !rewritable_arg(n, a) || !allow(u)) continue;
      if (arg.kind == NodeArg::Kind::Tensor) arg.value = to;
      for (ValueId& e : arg.list)
        if (e == from) e = to;
      n.rewritten = true;
      ++moved;
    }
  }
  return moved;
}

// Whether any tensor input has a dynamic dim, or any node a dynamic int
// argument: the graph (and the passes' result) then serves other sizes than
// the example values carry, so facts read from example sizes and strides do
// not hold for every run.
bool has_dynamic_dims(const Graph& g);

// Whether a and b address their memory alike in every run: same dtype and
// sizes, and strides equal where a dim has more than one element (a size-1
// dim's stride is never read). Only for graphs without dynamic dims.
bool same_layout(const Graph& g, ValueId a, ValueId b);

// A non-view, non-in-place node's output: freshly allocated and contiguous
// whatever the sizes.
bool fresh_contiguous(const Graph& g, ValueId v);

// Whether two Const arguments are the same constant.
bool same_constant(const Value& a, const Value& b);

}  // namespace kiln::jit::passes

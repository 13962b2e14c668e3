// Common subexpression elimination: a node computing what an earlier node
// already computed (same op, the same argument values, equal constants)
// gives its readers the earlier result, and is dropped unless its own result
// stays observable.
//
// Only op kinds that are functions of their arguments take part (pointwise,
// reductions, views, shape ops, library calls): creation ops would share one
// buffer between tensors the script sees as distinct (and `empty` holds
// garbage), random draws differ by design, in-place ops write. Python numbers
// are graph inputs, one per use, so nodes with a Scalar argument (every add
// and sub: alpha) never match: equal-looking numbers may differ next run; so
// do nodes with dynamic int arguments.
//
// Values name memory, so for a non-view pair the memory must hold still:
// nothing writes what the arguments may share between the two nodes, and
// nothing ever writes the first result's or the second's memory afterwards
// (a read moved from one to the other must see the same bytes whenever it
// runs; fusion may also run a reader later than its node). Two views of the
// same value with the same constants are the same memory with the same
// layout, so their readers may read either at any time.
#include <string>
#include <unordered_map>

#include "jit/passes/analysis.h"
#include "jit/passes/passes.h"

namespace kiln::jit {

namespace {

bool candidate(const Graph& g, const Node& n) {
  if (n.dynamic_ints) return false;  // equal example ints prove nothing for the next run
  switch (n.op->kind) {
    case OpKind::Pointwise:
    case OpKind::Reduction:
    case OpKind::View:
    case OpKind::Shape:
    case OpKind::Extern: break;
    default: return false;
  }
  for (const NodeArg& a : n.args)
    if (a.kind == NodeArg::Kind::Scalar) return false;  // never equal (see above)
  return !n.outs.empty() && !passes::writes_existing(g, n);
}

// A bucket key: the op and its tensor arguments (constants are compared exactly on a hit).
std::string key_of(const Node& n) {
  std::string k = n.op->name();
  for (const NodeArg& a : n.args) {
    k += '|';
    if (a.kind == NodeArg::Kind::Tensor) k += std::to_string(a.value);
    for (ValueId e : a.list) k += std::to_string(e) + ',';
  }
  return k;
}

bool same_args(const Node& a, const Node& b) {
  if (a.op != b.op || a.args.size() != b.args.size()) return false;
  for (size_t i = 0; i < a.args.size(); ++i) {
    const NodeArg& x = a.args[i];
    const NodeArg& y = b.args[i];
    if (x.kind != y.kind || x.value != y.value || x.list != y.list) return false;
    if (x.kind == NodeArg::Kind::Const && !passes::same_constant(x.constant, y.constant)) return false;
  }
  return true;
}

class Cse {
 public:
  Cse(Graph& g, const std::vector<bool>& live)
      : g_(g), live_(live), storages_(g), reads_(passes::count_reads(g)), hidden_(passes::maybe_read_through_input(g)) {}

  void run() {
    for (int32_t n = 0; n < int32_t(g_.nodes.size()); ++n) {
      const Node& node = g_.nodes[size_t(n)];
      if (node.dead || !candidate(g_, node)) continue;
      std::vector<int32_t>& earlier = seen_[key_of(node)];
      bool merged = false;
      for (int32_t m : earlier)
        if (!g_.nodes[size_t(m)].dead && same_args(g_.nodes[size_t(m)], node) && memory_holds(m, n)) {
          merge(m, n);
          merged = true;
          break;
        }
      if (!merged) earlier.push_back(n);
    }
  }

 private:
  bool memory_holds(int32_t m, int32_t n) const {
    if (g_.nodes[size_t(n)].op->kind == OpKind::View) return true;
    for (const NodeArg& a : g_.nodes[size_t(m)].args) {
      if (a.kind == NodeArg::Kind::Tensor && a.value >= 0 && storages_.written_between(a.value, m, n)) return false;
      for (ValueId e : a.list)
        if (e >= 0 && storages_.written_between(e, m, n)) return false;
    }
    for (ValueId o : g_.nodes[size_t(m)].outs)
      if (storages_.written_between(o, m)) return false;
    for (ValueId o : g_.nodes[size_t(n)].outs)
      if (storages_.written_between(o, n)) return false;
    return true;
  }

  void merge(int32_t m, int32_t n) {
    Node& second = g_.nodes[size_t(n)];
    for (size_t i = 0; i < second.outs.size(); ++i) {
      ValueId from = second.outs[i], to = g_.nodes[size_t(m)].outs[i];
      int moved = passes::rewrite_reads(g_, from, to, n, [](int32_t) { return true; });
      reads_[size_t(from)] -= moved;
      reads_[size_t(to)] += moved;
    }
    for (ValueId o : second.outs)
      if (passes::is_live(live_, o) || hidden_[size_t(o)] || reads_[size_t(o)] > 0) return;
    second.dead = true;
    for (const NodeArg& a : second.args) {
      if (a.kind == NodeArg::Kind::Tensor && a.value >= 0) --reads_[size_t(a.value)];
      for (ValueId e : a.list)
        if (e >= 0) --reads_[size_t(e)];
    }
  }

  Graph& g_;
  const std::vector<bool>& live_;
  passes::Storages storages_;
  std::vector<int32_t> reads_;
  std::vector<bool> hidden_;
  std::unordered_map<std::string, std::vector<int32_t>> seen_;
};

}  // namespace

void eliminate_common_subexpressions(Graph& g, const std::vector<bool>& live) { Cse(g, live).run(); }

}  // namespace kiln::jit

// Algebraic simplification: readers of a node's result read an earlier value
// instead when the graph proves the two equal. The node itself is left for
// dead code elimination (its result may still be observable).
//
// What is proven, and from what:
//  - views that give back their base: a chain of views that keep the storage
//    offset (transpose, t, permute, view, expand, (un)squeeze) ending with
//    the layout it started from (view(view(x, s1), x.shape), transpose(
//    transpose(x, 0, 1), 0, 1)) is that memory, read through the same
//    layout. With dynamic dims, sizes and strides of one example prove
//    nothing for the others, so only chains of permutations composing to the
//    identity and unsqueeze(d) then squeeze(d) count there.
//  - neg(neg(x)) == x, exactly, in every dtype neg accepts.
//  - x * ones, ones * x and x / ones (no rounding mode), where the ones come
//    from `ones`/`ones_like` through views nothing wrote in between, the
//    result has x's dtype and layout (no broadcast, no promotion): IEEE
//    multiplication and division by 1 are exact, also for -0, inf and NaN.
//  - clone(x), _to_copy(x) to x's own dtype, copy(self, x) with x's layout.
//
// Not done, on purpose: x * 1 and x + 0 where the number is a Python number
// (a graph input whose value the next run may change: nothing about it may
// be assumed); x + zeros (-0.0 + 0.0 is +0.0, and alpha is an input);
// x * zeros (NaN and inf); anything whose proof needs values.
//
// Moving a read from r to x is sound when the memory says so: a view of x
// with x's layout is x's memory, so it only needs x unwritten from x's
// definition to the reader; a computed copy needs x unwritten after the
// computation read it, and r unwritten after it was made, ever (fusion may run a
// reader later than its node). Views' readers keep their input: a view of
// other memory would alias other memory.
#include <numeric>
#include <optional>

#include "jit/passes/analysis.h"
#include "jit/passes/passes.h"

namespace kiln::jit {

namespace {

using passes::def_node;

bool named(const Node& n, std::string_view name) { return n.op->name() == name; }

bool keeps_offset(const Node& n) {
  if (n.op->kind != OpKind::View) return false;
  for (std::string_view v : {"transpose", "t", "permute", "view", "expand", "unsqueeze", "squeeze", "squeeze.dim",
                             "squeeze.dims"})
    if (named(n, v)) return true;
  return false;
}

// The node producing v, when it runs and its constants hold for every run;
// null for inputs.
const Node* producer(const Graph& g, ValueId v) {
  int32_t p = v >= 0 ? def_node(g, v) : -1;
  if (p < 0) return nullptr;
  const Node& n = g.nodes[size_t(p)];
  return n.dead || n.dynamic_ints ? nullptr : &n;
}

ValueId self_of(const Node& n) {
  return !n.args.empty() && n.args[0].kind == NodeArg::Kind::Tensor ? n.args[0].value : -1;
}

// A permuting view as a permutation: result dim i is input dim perm[i].
std::optional<Shape> permutation(const Graph& g, const Node& n) {
  ValueId in = self_of(n);
  if (in < 0) return std::nullopt;
  int64_t rank = int64_t(g.values[size_t(in)].sizes.size());
  Shape perm = Shape(size_t(rank));
  std::iota(perm.begin(), perm.end(), 0);
  if (named(n, "transpose")) {
    if (rank > 0) std::swap(perm[size_t(wrap_dim(n.args[1].constant.to_int(), rank))],
                            perm[size_t(wrap_dim(n.args[2].constant.to_int(), rank))]);
    return perm;
  }
  if (named(n, "t")) {
    if (rank == 2) std::swap(perm[0], perm[1]);
    return perm;
  }
  if (named(n, "permute")) {
    const Shape& dims = n.args[1].constant.int_list();
    if (int64_t(dims.size()) != rank) return std::nullopt;
    for (size_t i = 0; i < dims.size(); ++i) perm[i] = wrap_dim(dims[i], rank);
    return perm;
  }
  return std::nullopt;
}

bool identity(const Shape& perm) {
  for (size_t i = 0; i < perm.size(); ++i)
    if (perm[i] != int64_t(i)) return false;
  return true;
}

class Simplifier {
 public:
  explicit Simplifier(Graph& g) : g_(g), storages_(g), static_(!passes::has_dynamic_dims(g)) {}

  void run() {
    for (int32_t r = 0; r < int32_t(g_.nodes.size()); ++r) {
      const Node& n = g_.nodes[size_t(r)];
      if (n.dead || n.dynamic_ints || n.outs.size() != 1) continue;
      ValueId out = n.outs[0];
      if (ValueId base = view_base(n); base >= 0) {
        // The same memory read the same way: any reader that x still holds for.
        passes::rewrite_reads(g_, out, base, r, [&](int32_t u) {
          return !storages_.written_between(base, def_node(g_, base), u);
        });
        continue;
      }
      auto [x, read_at] = computed_copy(r);
      if (x < 0 || storages_.written_between(x, read_at) || storages_.written_between(out, r)) continue;
      passes::rewrite_reads(g_, out, x, r, [](int32_t) { return true; });
    }
  }

 private:
  // The farthest value this view chain shows unchanged; -1 if none.
  ValueId view_base(const Node& n) const {
    if (!keeps_offset(n)) return -1;
    ValueId out = n.outs[0], base = -1;
    if (static_) {
      for (const Node* p = &n; p && keeps_offset(*p); p = producer(g_, self_of(*p))) {
        ValueId in = self_of(*p);
        if (in < 0) break;
        if (passes::same_layout(g_, out, in)) base = in;
      }
      return base;
    }
    // Dynamic dims: structure only.
    if (named(n, "squeeze.dim")) {
      const Node* u = producer(g_, self_of(n));
      if (!u || !named(*u, "unsqueeze")) return -1;
      int64_t rank = int64_t(g_.values[size_t(self_of(n))].sizes.size());
      bool same = wrap_dim(u->args[1].constant.to_int(), rank) == wrap_dim(n.args[1].constant.to_int(), rank);
      return same ? self_of(*u) : -1;
    }
    std::optional<Shape> total = permutation(g_, n);
    for (const Node* p = &n; total;) {
      ValueId in = self_of(*p);
      if (identity(*total)) base = in;
      p = producer(g_, in);
      if (!p) break;
      std::optional<Shape> step = permutation(g_, *p);
      if (!step || step->size() != total->size()) break;
      for (int64_t& d : *total) d = (*step)[size_t(d)];
    }
    return base;
  }

  // A value equal to node r's result, and the node that read it: {-1, -1} if none.
  std::pair<ValueId, int32_t> computed_copy(int32_t r) const {
    const Node& n = g_.nodes[size_t(r)];
    ValueId out = n.outs[0];
    // Where x is its own copy in every run: same layout (static graphs), or
    // both freshly allocated with sizes equal by construction.
    auto copy_of = [&](ValueId x, bool sizes_follow) {
      if (x < 0) return false;
      if (static_) return passes::same_layout(g_, out, x);
      return sizes_follow && g_.values[size_t(x)].dtype == g_.values[size_t(out)].dtype &&
             passes::fresh_contiguous(g_, x);
    };
    if (named(n, "neg")) {
      const Node* inner = producer(g_, self_of(n));
      if (inner && named(*inner, "neg") && copy_of(self_of(*inner), true))
        return {self_of(*inner), g_.values[size_t(self_of(n))].node};
    }
    if ((named(n, "clone") || named(n, "_to_copy")) && copy_of(self_of(n), true)) return {self_of(n), r};
    if (named(n, "copy") && n.args[1].kind == NodeArg::Kind::Tensor && copy_of(n.args[1].value, false))
      return {n.args[1].value, r};
    if (static_ && (named(n, "mul") || (named(n, "div") && n.args[2].kind == NodeArg::Kind::Const &&
                                        n.args[2].constant.is_none()))) {
      ValueId a = self_of(n), b = n.args[1].kind == NodeArg::Kind::Tensor ? n.args[1].value : -1;
      if (ones(b, r) && copy_of(a, false)) return {a, r};
      if (named(n, "mul") && ones(a, r) && copy_of(b, false)) return {b, r};
    }
    return {-1, -1};
  }

  // Whether v holds ones when node `at` reads it: a view (of a view...) of a
  // `ones`/`ones_like` result that nothing wrote since.
  bool ones(ValueId v, int32_t at) const {
    const Node* p = producer(g_, v);
    while (p && p->op->kind == OpKind::View) p = producer(g_, self_of(*p));
    if (!p || !(named(*p, "ones") || named(*p, "ones_like"))) return false;
    ValueId made = p->outs[0];
    return !storages_.written_between(made, def_node(g_, made), at);
  }

  Graph& g_;
  passes::Storages storages_;
  bool static_;
};

}  // namespace

void simplify_algebra(Graph& g) { Simplifier(g).run(); }

}  // namespace kiln::jit

#include "jit/fusion.h"

#include <algorithm>
#include <memory>
#include <unordered_map>
#include <unordered_set>

#include "core/cpu_cache.h"
#include "core/lowering.h"
#include "jit/matmul_epilogue.h"

namespace kiln::jit {

namespace {

using kir::ExprId;

const Storage* storage_of(const Tensor& t) { return t.defined() ? t.storage().get() : nullptr; }

// The storages a node's kernel reads and writes. Views touch no data. Reads
// follow the graph's arguments, which passes may have rebound.
struct Access {
  std::vector<const Storage*> reads, writes;
};
Access access_of(const Graph& g, std::span<const lazy::PendingOp> ops, int32_t n) {
  Access a;
  const lazy::PendingOp& p = ops[size_t(n)];
  if (p.op->kind == OpKind::View) return a;
  auto read = [&](ValueId v) {
    if (v >= 0) a.reads.push_back(storage_of(resolve(ref_of(g, v), ops)));
  };
  for (const NodeArg& arg : g.nodes[size_t(n)].args) {
    if (arg.kind == NodeArg::Kind::Tensor) read(arg.value);
    for (ValueId v : arg.list) read(v);
  }
  for (const Tensor& t : p.outs) a.writes.push_back(storage_of(t));
  return a;
}

const OpDef& functional(const lazy::PendingOp& p) { return p.op->is_inplace() ? *p.op->functional : *p.op; }

bool same_view(const Tensor& a, const Tensor& b) {
  return a.sizes() == b.sizes() && a.strides() == b.strides() && a.offset() == b.offset() && a.dtype() == b.dtype();
}

// Shape [outer..., 1] or [outer...] of a Row domain.
bool is_row_shape(const Shape& s, const Shape& domain) {
  size_t r = domain.size();
  if (r == 0) return false;
  if (s.size() == r) return s[r - 1] == 1 && std::equal(s.begin(), s.end() - 1, domain.begin());
  return s.size() + 1 == r && std::equal(s.begin(), s.end(), domain.begin());
}

struct Stored {
  ValueId value;
  ExprId expr;
  bool per_row;
  TensorRef ref;
};

struct Group {
  FusedKernel fk;
  kir::Builder b{fk.kernel};
  Shape domain;
  bool sealed = false;
  std::unordered_map<ValueId, ExprId> exprs;
  std::unordered_set<ValueId> per_row;  // in-group values with one value per row
  std::vector<Stored> defined;          // every value the group defines, in order
  std::unordered_set<const Storage*> reads, writes;
  std::vector<const TensorImpl*> load_impls;  // per operand (loads only)
  std::unordered_map<int64_t, int32_t> param_of;  // (node << 16 | arg) or -1: row length

  bool conflicts(const Access& a) const {
    for (const Storage* s : a.reads)
      if (writes.count(s)) return true;
    for (const Storage* s : a.writes)
      if (writes.count(s) || reads.count(s)) return true;
    return false;
  }
};

// One node's lowering into a group; records failures instead of throwing so
// the pass can roll back and try elsewhere.
class NodeLowering : public kir::Lowering {
 public:
  NodeLowering(Group& g, const Graph& graph, std::span<const lazy::PendingOp> ops, int32_t node, Device device)
      : kir::Lowering(g.b, functional(ops[size_t(node)]), ops[size_t(node)].args, ops[size_t(node)].outs),
        g_(g), graph_(graph), ops_(ops), p_(ops[size_t(node)]), node_(node), device_(device) {}

  bool ok = true;
  std::vector<std::pair<ExprId, bool>> outs_set;  // per output: expression, per_row (-1: unset)

  ExprId tensor(int arg, DType as, int trailing) override {
    const NodeArg& a = graph_.nodes[size_t(node_)].args[size_t(arg)];
    if (a.kind != NodeArg::Kind::Tensor || a.value < 0) return -1;
    auto it = g_.exprs.find(a.value);
    if (it != g_.exprs.end()) {
      // The group holds it at the domain's index, not at a re-shaped one.
      if (trailing) return fail();
      if (!g_.per_row.count(a.value)) uses_elem_ = true;
      return b.cast(it->second, as);
    }
    uses_elem_ = true;
    TensorRef ref = ref_of(graph_, a.value);
    const Tensor& t = resolve(ref, ops_);
    if (g_.writes.count(storage_of(t)) || !kir::lowerable_type(t.dtype())) return fail();
    // A host scalar (a Python number's 0-dim tensor) in a device kernel: its
    // value goes in as a parameter, read at each launch.
    if (t.device() != device_) {
      if (t.dim() != 0 || t.device().type != DeviceType::CPU || !p_.args[size_t(arg)].is_tensor()) return fail();
      return b.param(param_slot((int64_t(node_) << 16) | arg, arg), as);
    }
    return b.cast(load(t, ref, trailing), as);
  }

  ExprId gather(int arg, int64_t dim, ExprId at, DType as, bool keep_dim) override {
    if (at < 0) return fail();
    const NodeArg& a = graph_.nodes[size_t(node_)].args[size_t(arg)];
    // A value this kernel computes has no memory to gather from.
    if (a.kind != NodeArg::Kind::Tensor || a.value < 0 || g_.exprs.count(a.value)) return fail();
    TensorRef ref = ref_of(graph_, a.value);
    const Tensor& t = resolve(ref, ops_);
    const int64_t d = dim < 0 ? dim + t.dim() : dim;
    if (d < 0 || d >= t.dim() || g_.writes.count(storage_of(t)) || !kir::lowerable_type(t.dtype()) ||
        t.device() != device_)
      return fail();
    uses_elem_ = true;
    auto [operand, offset] = offset_operand({.dtype = t.dtype()}, ref, d, keep_dim, at);
    return b.cast(b.gather(operand, offset), as);
  }

  ExprId index(int64_t dim) override {
    const int64_t rank = int64_t(g_.domain.size());
    const int64_t d = dim < 0 ? dim + rank : dim;
    if (d < 0 || d >= rank) return fail();
    uses_elem_ = true;
    return b.index(int32_t(d));
  }

  bool domain_of(int arg) override {
    if (!g_.fk.nodes.empty() || !g_.fk.kernel.exprs.empty() || !p_.args[size_t(arg)].is_tensor()) return false;
    g_.domain = p_.args[size_t(arg)].tensor().sizes();
    return true;
  }

  void scatter_add_out(int out, int64_t dim, ExprId at, ExprId value) override {
    if (at < 0 || value < 0 || size_t(out) >= outs.size() || !g_.fk.nodes.empty()) {
      fail();
      return;
    }
    const Tensor& t = p_.outs[size_t(out)];
    const int64_t d = dim < 0 ? dim + t.dim() : dim;
    if (d < 0 || d >= t.dim() || !kir::lowerable_type(t.dtype()) || t.dtype() == DType::Bool) {
      fail();
      return;
    }
    auto [operand, offset] =
        offset_operand({.dtype = t.dtype(), .output = true}, {.node = node_, .out = out}, d, false, at);
    g_.fk.kernel.stores.push_back(
        {.operand = operand, .value = b.cast(value, t.dtype()), .offset = offset, .accumulate = true});
    g_.fk.zero_first.push_back(operand);
    scatter_outs.push_back(out);
    set_out(out, value, false);
  }

  bool scatters(size_t out) const {
    return std::find(scatter_outs.begin(), scatter_outs.end(), int(out)) != scatter_outs.end();
  }
  std::vector<int> scatter_outs;  // outputs written by scatter_add_out

  ExprId scalar(int arg, DType as) override {
    const NodeArg& a = graph_.nodes[size_t(node_)].args[size_t(arg)];
    if (a.kind == NodeArg::Kind::Scalar) return b.param(param_slot((int64_t(node_) << 16) | arg, arg), as);
    if (a.kind == NodeArg::Kind::Const && a.constant.is_number()) return b.constant(a.constant.to_double(), as);
    return fail();
  }

  void set_out(int i, ExprId value, bool per_row) override {
    if (value < 0 || size_t(i) >= outs.size()) {
      fail();
      return;
    }
    if (outs_set.size() < outs.size()) outs_set.resize(outs.size(), {-1, false});
    outs_set[size_t(i)] = {value, per_row};
  }

  bool can_reduce(int arg, int64_t dim) override {
    const Tensor& t = p_.args[size_t(arg)].tensor();
    int64_t rank = t.dim();
    if (rank == 0 || (dim < 0 ? dim + rank : dim) != rank - 1) return false;
    kir::Kernel& k = g_.fk.kernel;
    if (g_.fk.nodes.empty() && k.exprs.empty()) g_.domain = t.sizes();
    if (t.sizes() != g_.domain) return false;
    k.kind = kir::Kind::Row;
    k.rank = int32_t(rank);
    return true;
  }

  ExprId row_length(DType as) override {
    if (g_.fk.kernel.kind != kir::Kind::Row) return fail();
    return b.param(param_slot(-1, {.row_length = true}), as);
  }

  std::optional<double> specialize(int arg) override {
    ValueGuard vg{node_, arg, 0};
    std::optional<double> v = guarded_value(vg, ops_);
    if (!v) return v;
    vg.value = *v;
    g_.fk.guards.push_back(vg);
    return v;
  }

  std::optional<int64_t> specialize_size(int arg, int64_t dim) override {
    if (!p_.args[size_t(arg)].is_tensor()) return std::nullopt;
    const Tensor& t = p_.args[size_t(arg)].tensor();
    const int64_t d = dim < 0 ? dim + t.dim() : dim;
    if (!t.defined() || d < 0 || d >= t.dim()) return std::nullopt;
    g_.fk.guards.push_back({.node = node_, .arg = arg, .value = double(t.size(d)), .dim = int32_t(d)});
    return t.size(d);
  }

  bool uses_elem() const { return uses_elem_; }

 private:
  ExprId fail() {
    ok = false;
    return -1;
  }

  int32_t param_slot(int64_t key, int arg) { return param_slot(key, ParamBinding{.node = node_, .arg = arg}); }
  int32_t param_slot(int64_t key, ParamBinding binding) {
    auto [it, fresh] = g_.param_of.try_emplace(key, int32_t(g_.fk.params.size()));
    if (fresh) g_.fk.params.push_back(binding);
    return it->second;
  }

  // An operand whose dim `d` is addressed by `at` (a gather's source, a
  // scatter's target), that dim dropped from (or, keep_dim, size 1 in) its
  // mapping: adds it and returns it with the element offset at * stride(d),
  // the stride a kernel parameter read at each launch.
  std::pair<int32_t, ExprId> offset_operand(kir::Operand o, TensorRef ref, int64_t d, bool keep_dim, ExprId at) {
    kir::Kernel& k = g_.fk.kernel;
    k.operands.push_back(o);
    g_.fk.operands.push_back({.tensor = ref, .gather_dim = int8_t(d), .keep_dim = keep_dim});
    g_.load_impls.push_back(nullptr);  // never shared with a plain load
    const int32_t operand = int32_t(k.operands.size() - 1);
    const int64_t key = (int64_t(1) << 60) | (int64_t(operand) << 8) | d;  // one stride per operand
    ExprId stride = b.param(param_slot(key, {.stride_dim = int32_t(d), .strided = ref}), DType::Int64);
    return {operand, b.binary(kir::Op::Mul, b.cast(at, DType::Int64), stride)};
  }

  ExprId load(const Tensor& t, TensorRef ref, int trailing) {
    for (size_t k = 0; k < g_.load_impls.size(); ++k)
      if (g_.load_impls[k] == t.impl() && g_.fk.operands[k].trailing == trailing) return b.load(int32_t(k));
    kir::Kernel& k = g_.fk.kernel;
    k.operands.push_back({.dtype = t.dtype()});
    g_.fk.operands.push_back({.tensor = ref, .trailing = int8_t(trailing)});
    g_.load_impls.push_back(t.impl());
    return b.load(int32_t(k.operands.size() - 1));
  }

  Group& g_;
  const Graph& graph_;
  std::span<const lazy::PendingOp> ops_;
  const lazy::PendingOp& p_;
  int32_t node_;
  Device device_;
  bool uses_elem_ = false;
};

class Fuser {
 public:
  Fuser(const Graph& g, std::span<const lazy::PendingOp> ops, const std::vector<bool>& live, Device device)
      : g_(g), ops_(ops), live_(live), device_(device) {}

  FusionPlan run() {
    home_of_.assign(ops_.size(), -1);
    for (int32_t n = 0; n < int32_t(ops_.size()); ++n) place(n);
    return finish();
  }

 private:
  static constexpr size_t kOpenGroups = 8;
  static constexpr int32_t kDead = -2;

  // A node joins a kernel only when its tensors live where the kernels run
  // (host scalars become parameters).
  bool on_device(const lazy::PendingOp& p) const {
    bool here = true;
    for_each_tensor(p.args, [&](const Tensor& t) {
      here = here && (t.device() == device_ || (t.dim() == 0 && t.device().type == DeviceType::CPU));
    });
    for (const Tensor& t : p.outs) here = here && (!t.defined() || t.device() == device_);
    return here;
  }

  void place(int32_t n) {
    if (g_.nodes[size_t(n)].dead) {
      home_of_[size_t(n)] = kDead;
      return;
    }
    const lazy::PendingOp& p = ops_[size_t(n)];
    Access acc = access_of(g_, ops_, n);
    const OpDef& f = p.op->is_inplace() ? *p.op->functional : *p.op;
    Group* home = nullptr;
    // A node with dynamic int arguments stays eager: a lowering would bake this run's values in.
    const Node& node = g_.nodes[size_t(n)];
    if (f.lower && p.op->kind != OpKind::View && !node.steal_source && !node.dynamic_ints && on_device(p)) {
      for (size_t i = groups_.size(); i-- > 0 && !home;) {
        Group& g = *groups_[i];
        if (!g.sealed && try_join(g, n, acc)) home = &g;
      }
      if (!home) {
        groups_.push_back(std::make_unique<Group>());
        if (try_join(*groups_.back(), n, acc)) {
          home = groups_.back().get();
        } else {
          groups_.pop_back();
        }
      }
    }
    if (home) home_of_[size_t(n)] = home_index(home);
    // Groups that must not be delayed past this node are sealed.
    size_t open = 0;
    for (size_t i = groups_.size(); i-- > 0;) {
      Group& g = *groups_[i];
      if (&g == home || g.sealed) continue;
      if (g.conflicts(acc) || ++open > kOpenGroups) g.sealed = true;
    }
  }

  int32_t home_index(const Group* g) const {
    for (size_t i = groups_.size(); i-- > 0;)
      if (groups_[i].get() == g) return int32_t(i);
    return -1;
  }

  // Lowers node n into g; on failure g is left as it was.
  bool try_join(Group& g, int32_t n, const Access& acc) {
    const lazy::PendingOp& p = ops_[size_t(n)];
    kir::Kernel& k = g.fk.kernel;
    const bool fresh = g.fk.nodes.empty();
    if (fresh) g.domain = p.outs.empty() ? Shape{} : p.outs[0].sizes();
    const size_t n_exprs = k.exprs.size(), n_red = k.reductions.size(), n_ops = k.operands.size(),
                 n_params = g.fk.params.size(), n_guards = g.fk.guards.size(), n_stores = k.stores.size(),
                 n_zero = g.fk.zero_first.size();
    const kir::Kind kind = k.kind;
    const int32_t rank = k.rank, num_params = k.num_params;
    const Shape domain = g.domain;
    NodeLowering L(g, g_, ops_, n, device_);
    bool ok = functional(p).lower(L) && L.ok && accept(g, n, L);
    if (ok) {
      commit(g, n, L, acc);
      // A scatter's outputs exist only in memory, after the kernel: nothing joins it.
      if (!L.scatter_outs.empty()) g.sealed = true;
      return true;
    }
    k.exprs.resize(n_exprs);
    k.stores.resize(n_stores);
    g.fk.zero_first.resize(n_zero);
    k.reductions.resize(n_red);
    k.operands.resize(n_ops);
    g.fk.operands.resize(n_ops);
    g.load_impls.resize(n_ops);
    g.fk.params.resize(n_params);
    g.fk.guards.resize(n_guards);
    std::erase_if(g.param_of, [&](const auto& e) { return size_t(e.second) >= n_params; });
    k.kind = kind;
    k.rank = rank;
    k.num_params = num_params;
    g.domain = domain;
    return false;
  }

  // Whether the outputs the lowering defined fit the group's domain, and an
  // in-place write does not clobber what the group loads another way.
  bool accept(Group& g, int32_t n, const NodeLowering& L) {
    const lazy::PendingOp& p = ops_[size_t(n)];
    if (L.outs_set.size() != p.outs.size()) return false;
    for (size_t i = 0; i < p.outs.size(); ++i) {
      auto [e, per_row] = L.outs_set[i];
      const Tensor& t = p.outs[i];
      if (e < 0 || !t.defined() || !kir::lowerable_type(t.dtype())) return false;
      if (L.scatters(i)) continue;  // its store is made: any shape
      bool row = g.fk.kernel.kind == kir::Kind::Row;
      bool elem_shape = t.sizes() == g.domain;
      bool row_shape = row && is_row_shape(t.sizes(), g.domain);
      if (per_row ? !row_shape : !(elem_shape || (row_shape && !L.uses_elem()))) return false;
      for (size_t k = 0; k < g.load_impls.size(); ++k) {
        const Tensor& loaded = resolve(g.fk.operands[k].tensor, ops_);
        if (storage_of(loaded) == storage_of(t) && !same_view(loaded, t)) return false;
      }
    }
    if (g.domain.size() > 6) return false;
    return true;
  }

  void commit(Group& g, int32_t n, const NodeLowering& L, const Access& acc) {
    const lazy::PendingOp& p = ops_[size_t(n)];
    const Node& node = g_.nodes[size_t(n)];
    kir::Kernel& k = g.fk.kernel;
    if (k.kind == kir::Kind::Pointwise) k.rank = std::max<int32_t>(1, int32_t(g.domain.size()));
    for (size_t i = 0; i < p.outs.size(); ++i) {
      if (L.scatters(i)) continue;  // not a value at the domain's index
      auto [e, per_row] = L.outs_set[i];
      const Tensor& t = p.outs[i];
      bool row = per_row || (k.kind == kir::Kind::Row && t.sizes() != g.domain);
      ExprId cast = g.b.cast(e, t.dtype());
      ValueId v = node.outs[i];
      g.exprs[v] = cast;
      if (row) g.per_row.insert(v);
      g.defined.push_back({v, cast, row, TensorRef{.node = n, .out = int32_t(i)}});
    }
    if (g.fk.nodes.empty()) g.fk.domain = domain_ref(g, n);
    g.fk.nodes.push_back(n);
    for (const Storage* s : acc.reads) g.reads.insert(s);
    for (const Storage* s : acc.writes) g.writes.insert(s);
  }

  // A tensor of the node whose sizes are the domain.
  TensorRef domain_ref(const Group& g, int32_t n) const {
    const lazy::PendingOp& p = ops_[size_t(n)];
    for (size_t i = 0; i < p.outs.size(); ++i)
      if (p.outs[i].sizes() == g.domain) return {.node = n, .out = int32_t(i)};
    for (size_t a = 0; a < p.args.size(); ++a)
      if (p.args[a].is_tensor() && p.args[a].tensor().sizes() == g.domain) return {.node = n, .arg = int32_t(a)};
    return {};
  }

  FusionPlan finish() {
    FusionPlan plan;
    auto group_of_value = [&](ValueId v) {
      const IrValue& iv = g_.values[size_t(v)];
      return iv.kind == IrValue::Kind::NodeOutput ? std::max(home_of_[size_t(iv.node)], -1) : -1;
    };
    std::vector<bool> used_outside(g_.values.size(), false);
    for (size_t n = 0; n < g_.nodes.size(); ++n)
      for (const NodeArg& a : g_.nodes[n].dead ? kNoArgs : g_.nodes[n].args) {
        auto note = [&](ValueId v) {
          if (v >= 0 && group_of_value(v) >= 0 && group_of_value(v) != home_of_[n]) used_outside[size_t(v)] = true;
        };
        if (a.kind == NodeArg::Kind::Tensor) note(a.value);
        for (ValueId v : a.list) note(v);
      }
    std::vector<int32_t> kernel_of(groups_.size(), -1);
    for (size_t gi = 0; gi < groups_.size(); ++gi) {
      Group& g = *groups_[gi];
      add_stores(g, used_outside);
      if (g.fk.kernel.stores.empty()) continue;  // nothing it computes is needed
      name(g);
      kernel_of[gi] = int32_t(plan.kernels.size());
      plan.kernels.push_back(std::move(g.fk));
    }
    // A kernel runs where its last node was.
    plan.patches.resize(g_.nodes.size());
    plan.steal.assign(g_.nodes.size(), 0);
    for (size_t n = 0; n < g_.nodes.size(); ++n) {
      int32_t gi = home_of_[n];
      if (gi == kDead) continue;
      plan.steal[n] = g_.nodes[n].steal_source;
      // Kernels' nodes too: a launch that does not fit runs them eagerly.
      if (g_.nodes[n].rewritten) plan.patches[n] = patches_for(int32_t(n));
      if (gi < 0) {
        plan.steps.push_back(int32_t(n));
      } else if (kernel_of[size_t(gi)] >= 0 && plan.kernels[size_t(kernel_of[size_t(gi)])].nodes.back() == int32_t(n)) {
        plan.steps.push_back(-1 - kernel_of[size_t(gi)]);
      }
    }
    return plan;
  }

  std::vector<ArgPatch> patches_for(int32_t n) const {
    std::vector<ArgPatch> out;
    const Node& node = g_.nodes[size_t(n)];
    for (size_t a = 0; a < node.args.size(); ++a) {
      const NodeArg& arg = node.args[a];
      if (arg.kind == NodeArg::Kind::Tensor && arg.value >= 0) out.push_back({int32_t(a), -1, ref_of(g_, arg.value)});
      for (size_t e = 0; e < arg.list.size(); ++e)
        if (arg.list[e] >= 0) out.push_back({int32_t(a), int32_t(e), ref_of(g_, arg.list[e])});
    }
    return out;
  }

  inline static const std::vector<NodeArg> kNoArgs;

  void add_stores(Group& g, const std::vector<bool>& used_outside) {
    kir::Kernel& k = g.fk.kernel;
    bool updates = false;  // some store lands in place
    for (size_t i = 0; i < g.defined.size(); ++i) {
      const Stored& s = g.defined[i];
      // An in-place write always lands: other values (views, the tensor it
      // updates) read its memory without an edge from this value.
      bool inplace = ops_[size_t(s.ref.node)].op->is_inplace();
      bool needed = inplace || (size_t(s.value) < live_.size() && live_[size_t(s.value)]) ||
                    used_outside[size_t(s.value)];
      if (!needed) continue;
      const Tensor& t = ops_[size_t(s.ref.node)].outs[size_t(s.ref.out)];
      bool overwritten = false;  // a later version in the group writes the same memory
      for (size_t j = i + 1; j < g.defined.size() && !overwritten; ++j) {
        const Tensor& later = ops_[size_t(g.defined[j].ref.node)].outs[size_t(g.defined[j].ref.out)];
        overwritten = later.impl() == t.impl();
      }
      if (overwritten) continue;
      Mapping m = s.per_row && t.dim() + 1 == int64_t(g.domain.size()) ? Mapping::Rows : Mapping::Broadcast;
      k.operands.push_back({.dtype = t.dtype(), .output = true});
      g.fk.operands.push_back({s.ref, m});
      k.stores.push_back({int32_t(k.operands.size() - 1), s.expr, s.per_row});
      updates = updates || inplace;
    }
    classify_operands(g);
    // Not a kernel that updates in place (an optimizer step): it read the
    // lines it writes, so storing them costs no extra read, and the tensors
    // it updates (parameters, momentum) are read again next step, from the
    // cache if they fit.
    k.streams = !updates && streams(k, g.domain);
  }

  // Fixes each operand's inner-dim walk from this run's strides (the launcher
  // checks later runs against it).
  void classify_operands(Group& g) {
    kir::Kernel& k = g.fk.kernel;
    int64_t last = g.domain.empty() ? 1 : g.domain.back();
    for (size_t i = 0; i < k.operands.size(); ++i) {
      const KernelBinding& b = g.fk.operands[i];
      Shape sizes, strides;
      mapped_view(resolve(b.tensor, ops_), b, sizes, strides);
      int64_t stride = 0;
      bool has_last = b.mapping == Mapping::Broadcast && !sizes.empty() && sizes.back() != 1;
      if (has_last) stride = strides.back();
      k.operands[i].inner = (last <= 1 || stride == 1) ? kir::Inner::Contiguous
                            : stride == 0              ? kir::Inner::Broadcast
                                                       : kir::Inner::Strided;
      if (last > 1 && !has_last) k.operands[i].inner = kir::Inner::Broadcast;
    }
    int flops = 0;
    for (const kir::Expr& e : k.exprs) flops += kir::op_arity(e.op) > 0 && e.op != kir::Op::Cast;
    k.flops_per_element = flops;
  }

  // Whether the kernel's contiguous element stores write enough, at this
  // run's sizes, to bypass the cache (kir::Kernel::streams).
  static bool streams(const kir::Kernel& k, const Shape& domain) {
    const int64_t threshold = streaming_store_bytes();
    if (threshold <= 0) return false;
    int64_t bytes = k.streamable_bytes_per_element();
    for (int64_t d : domain) bytes *= d;
    return bytes >= threshold;
  }

  void name(Group& g) {
    std::string s = "fused";
    std::string prev;
    for (int32_t n : g.fk.nodes) {
      // The op's base name: overloads (pow.Tensor_Scalar, masked_fill.Scalar) read as their op.
      const std::string& full = ops_[size_t(n)].op->name();
      std::string op = full.substr(0, full.find('.'));
      if (op == prev) continue;
      if (s.size() + op.size() > 60) {
        s += "_etc";
        break;
      }
      s += "_" + op;
      prev = op;
    }
    g.fk.kernel.name = s;
  }

  const Graph& g_;
  std::span<const lazy::PendingOp> ops_;
  const std::vector<bool>& live_;
  Device device_;
  std::vector<std::unique_ptr<Group>> groups_;
  std::vector<int32_t> home_of_;  // per node: its group, -1 when it runs its eager kernel
};

}  // namespace

void mapped_view(const Tensor& t, const KernelBinding& b, Shape& sizes, Shape& strides) {
  sizes = t.sizes();
  strides = t.strides();
  if (b.gather_dim >= 0 && b.gather_dim < int64_t(sizes.size())) {
    if (b.keep_dim) {
      sizes[size_t(b.gather_dim)] = 1;
      strides[size_t(b.gather_dim)] = 0;
    } else {
      sizes.erase(sizes.begin() + b.gather_dim);
      strides.erase(strides.begin() + b.gather_dim);
    }
  }
  for (int i = 0; i < b.trailing; ++i) {
    sizes.push_back(1);
    strides.push_back(0);
  }
}

const Tensor& resolve(const TensorRef& r, std::span<const lazy::PendingOp> ops) {
  const lazy::PendingOp& p = ops[size_t(r.node)];
  if (r.out >= 0) return p.outs[size_t(r.out)];
  const Value& v = p.args[size_t(r.arg)];
  return r.elem >= 0 ? v.tensor_list()[size_t(r.elem)] : v.tensor();
}

std::optional<double> guarded_value(const ValueGuard& g, std::span<const lazy::PendingOp> ops) {
  const Value& v = ops[size_t(g.node)].args[size_t(g.arg)];
  if (g.dim >= 0) {
    if (!v.is_tensor() || !v.tensor().defined() || g.dim >= v.tensor().dim()) return std::nullopt;
    return double(v.tensor().size(g.dim));
  }
  if (v.is_number()) return v.to_double();
  if (v.is_tensor() && v.tensor().defined() && v.tensor().impl()->is_wrapped_number) return v.tensor().item_double();
  return std::nullopt;
}

TensorRef ref_of(const Graph& g, ValueId v) {
  const IrValue& iv = g.values[size_t(v)];
  if (iv.kind == IrValue::Kind::NodeOutput) return {.node = iv.node, .out = iv.out_index};
  return {.node = iv.use_node, .arg = iv.use_arg, .elem = iv.use_elem};
}

FusionPlan fuse(const Graph& g, std::span<const lazy::PendingOp> ops, const std::vector<bool>& live,
                Device device) {
  FusionPlan plan = Fuser(g, ops, live, device).run();
  if (device.type == DeviceType::CPU) plan_matmul_epilogues(g, live, plan);
  return plan;
}

std::string plan_text(const FusionPlan& p, const Graph& g) {
  std::string s;
  for (int32_t step : p.steps) {
    if (step >= 0) {
      s += "eager " + g.nodes[size_t(step)].op->name() + (g.nodes[size_t(step)].rewritten ? " (rebound)" : "") +
           (p.steal[size_t(step)] ? " (steals its source)" : "");
      if (const int32_t e = p.epilogue_of.empty() ? -1 : p.epilogue_of[size_t(step)]; e >= 0)
        s += " + epilogue " + p.kernels[size_t(p.epilogues[size_t(e)].kernel)].kernel.name;
      s += "\n";
      continue;
    }
    const int32_t ki = -1 - step;
    const FusedKernel& k = p.kernels[size_t(ki)];
    const bool epilogue = std::ranges::any_of(p.epilogues, [&](const MatmulEpilogue& e) { return e.kernel == ki; });
    s += "kernel " + k.kernel.name + " [" + std::to_string(k.nodes.size()) + " nodes, " +
         std::to_string(k.kernel.stores.size()) + " stores]" + (epilogue ? " (when its mm cannot take it)" : "") +
         "\n";
  }
  return s;
}

}  // namespace kiln::jit

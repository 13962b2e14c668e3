#include "jit/passes/analysis.h"

#include <algorithm>
#include <bit>
#include <map>
#include <utility>

namespace kiln::jit::passes {

int32_t def_node(const Graph& g, ValueId v) {
  const IrValue& iv = g.values[size_t(v)];
  return iv.kind == IrValue::Kind::NodeOutput ? iv.node : -1;
}

bool writes_existing(const Graph& g, const Node& n) {
  if (n.op->is_inplace()) return true;
  for (ValueId o : n.outs)
    if (g.values[size_t(o)].version_of >= 0) return true;
  return false;
}

bool removable(const Graph& g, const Node& n) {
  switch (n.op->kind) {
    case OpKind::Pointwise:
    case OpKind::Reduction:
    case OpKind::View:
    case OpKind::Shape:
    case OpKind::Extern:
    case OpKind::Creation: break;
    case OpKind::Random:     // the generator's state is observable
    case OpKind::Composite:  // never recorded; if one were, its effects are unknown here
      return false;
  }
  return !n.outs.empty() && !writes_existing(g, n);
}

namespace {

// Node outputs and tensor inputs bucketed by (dtype, sizes), the metadata a
// detached alias keeps.
using MetaKey = std::pair<DType, Shape>;

struct Buckets {
  std::map<MetaKey, std::vector<ValueId>> outputs;
  std::map<MetaKey, int32_t> last_input_use;  // the latest first use of an input with this metadata
};

Buckets bucket(const Graph& g) {
  Buckets b;
  for (ValueId t : g.tensor_inputs) {
    const IrValue& iv = g.values[size_t(t)];
    auto [it, fresh] = b.last_input_use.try_emplace({iv.dtype, iv.sizes}, iv.use_node);
    if (!fresh) it->second = std::max(it->second, iv.use_node);
  }
  for (size_t v = 0; v < g.values.size(); ++v) {
    const IrValue& iv = g.values[v];
    if (iv.kind == IrValue::Kind::NodeOutput && iv.node >= 0)
      b.outputs[{iv.dtype, iv.sizes}].push_back(ValueId(v));
  }
  return b;
}

}  // namespace

std::vector<bool> maybe_read_through_input(const Graph& g) {
  std::vector<bool> out(g.values.size(), false);
  Buckets b = bucket(g);
  for (const auto& [key, values] : b.outputs) {
    auto it = b.last_input_use.find(key);
    if (it == b.last_input_use.end()) continue;
    for (ValueId v : values) out[size_t(v)] = g.values[size_t(v)].node < it->second;
  }
  // A view's metadata was set when it was recorded, so a detached copy of it
  // reads its base's memory without the view node running: the base is what
  // such a read needs.
  for (size_t v = out.size(); v-- > 0;) {
    const IrValue& iv = g.values[v];
    if (!out[v] || iv.kind != IrValue::Kind::NodeOutput) continue;
    const Node& n = g.nodes[size_t(iv.node)];
    if (n.op->kind != OpKind::View || n.args.empty() || n.args[0].kind != NodeArg::Kind::Tensor || n.args[0].value < 0)
      continue;
    out[v] = false;
    out[size_t(n.args[0].value)] = true;
  }
  return out;
}

Storages::Storages(const Graph& g, InputAliases aliases) : parent_(g.values.size()) {
  for (size_t v = 0; v < parent_.size(); ++v) parent_[v] = int32_t(v);
  if (!g.tensor_inputs.empty()) {
    // Tensor inputs may be views of one another (made before the graph began)...
    ValueId first = g.tensor_inputs.front();
    for (ValueId t : g.tensor_inputs) unite(t, first);
    // ...and of node outputs, through detached aliases (see maybe_read_through_input).
    std::vector<bool> hidden = maybe_read_through_input(g);
    for (size_t v = 0; v < hidden.size() && aliases == InputAliases::Assumed; ++v)
      if (hidden[v]) unite(ValueId(v), first);
  }
  for (const Node& n : g.nodes) {
    if (n.op->kind == OpKind::View)
      for (ValueId o : n.outs)
        for (const NodeArg& a : n.args) {
          if (a.kind == NodeArg::Kind::Tensor && a.value >= 0) unite(o, a.value);
          for (ValueId e : a.list)
            if (e >= 0) unite(o, e);
        }
    for (ValueId o : n.outs)
      if (g.values[size_t(o)].version_of >= 0) unite(o, g.values[size_t(o)].version_of);
    if (n.op->is_inplace() && !n.outs.empty() && !n.args.empty() && n.args[0].value >= 0)
      unite(n.outs[0], n.args[0].value);
  }
  writers_.resize(parent_.size());
  for (size_t i = 0; i < g.nodes.size(); ++i) {
    const Node& n = g.nodes[i];
    if (!writes_existing(g, n)) continue;
    for (ValueId o : n.outs) writers_[size_t(root(o))].push_back(int32_t(i));
    if (n.op->is_inplace() && !n.args.empty() && n.args[0].value >= 0)
      writers_[size_t(root(n.args[0].value))].push_back(int32_t(i));
  }
  for (auto& w : writers_) w.erase(std::unique(w.begin(), w.end()), w.end());
}

int32_t Storages::root(ValueId v) const {
  int32_t r = v;
  while (parent_[size_t(r)] != r) r = parent_[size_t(r)];
  while (parent_[size_t(v)] != r) v = std::exchange(parent_[size_t(v)], r);
  return r;
}

void Storages::unite(ValueId a, ValueId b) {
  int32_t ra = root(a), rb = root(b);
  if (ra != rb) parent_[size_t(std::max(ra, rb))] = std::min(ra, rb);
}

bool Storages::written_between(ValueId v, int32_t after, int32_t before) const {
  const std::vector<int32_t>& w = writers_[size_t(root(v))];
  auto it = std::upper_bound(w.begin(), w.end(), after);
  return it != w.end() && *it < before;
}

std::vector<int32_t> count_reads(const Graph& g) {
  std::vector<int32_t> reads(g.values.size(), 0);
  for (const Node& n : g.nodes) {
    if (n.dead) continue;
    for (const NodeArg& a : n.args) {
      if (a.kind == NodeArg::Kind::Tensor && a.value >= 0) ++reads[size_t(a.value)];
      for (ValueId e : a.list)
        if (e >= 0) ++reads[size_t(e)];
    }
  }
  return reads;
}

bool rewritable_arg(const Node& u, size_t arg) {
  if (u.op->kind == OpKind::View) return false;
  return !(u.op->is_inplace() && arg == 0);
}

bool has_dynamic_dims(const Graph& g) {
  for (ValueId t : g.tensor_inputs)
    if (g.values[size_t(t)].dynamic_dims) return true;
  for (const Node& n : g.nodes)
    if (n.dynamic_ints) return true;
  return false;
}

bool same_layout(const Graph& g, ValueId a, ValueId b) {
  const IrValue& x = g.values[size_t(a)];
  const IrValue& y = g.values[size_t(b)];
  if (x.dtype != y.dtype || x.sizes != y.sizes || x.strides.size() != y.strides.size()) return false;
  for (size_t d = 0; d < x.sizes.size(); ++d)
    if (x.sizes[d] != 1 && x.strides[d] != y.strides[d]) return false;
  return true;
}

bool fresh_contiguous(const Graph& g, ValueId v) {
  const IrValue& iv = g.values[size_t(v)];
  if (iv.kind != IrValue::Kind::NodeOutput || iv.node < 0 || iv.version_of >= 0) return false;
  const Node& n = g.nodes[size_t(iv.node)];
  return n.op->kind != OpKind::View && !n.op->is_inplace();
}

bool same_constant(const Value& a, const Value& b) {
  if (a.var().index() != b.var().index()) return false;
  if (a.is_none()) return true;
  if (a.is_bool() || a.is_int()) return a.to_int() == b.to_int();
  if (a.is_double()) return std::bit_cast<uint64_t>(a.to_double()) == std::bit_cast<uint64_t>(b.to_double());
  if (a.is_int_list()) return a.int_list() == b.int_list();
  if (a.is_dtype()) return a.dtype() == b.dtype();
  if (a.is_string()) return a.str() == b.str();
  return false;  // tensors are never constants
}

}  // namespace kiln::jit::passes

#include "jit/graph.h"

#include <bit>
#include <string>
#include <unordered_map>
#include <utility>

#include "core/format.h"

namespace kiln::jit {

namespace {

// ---- building --------------------------------------------------------------

class Builder {
 public:
  explicit Builder(const DynamicDims* dynamic) : dynamic_(dynamic) {}

  void add(const lazy::PendingOp& p) {
    KILN_CHECK(p.op, Runtime, "jit: a pending op has no op");
    const Schema& s = p.op->schema;
    KILN_CHECK(p.args.size() == s.args.size(), Runtime, "jit: pending `", s.name, "` has ", p.args.size(),
               " arguments, its schema ", s.args.size());
    Node n{.op = p.op, .site = p.site};
    n.args.reserve(p.args.size());
    int32_t node = int32_t(g_.nodes.size());
    for (size_t a = 0; a < p.args.size(); ++a) {
      use_ = {node, int32_t(a)};
      n.args.push_back(arg(s.args[a], p.args[a]));
      NodeArg& added = n.args.back();
      if (added.kind == NodeArg::Kind::Const && (p.args[a].is_int() || p.args[a].is_int_list()) && dynamic_ &&
          dynamic_->int_arg(size_t(node), a))
        n.dynamic_ints = added.dynamic = true;
    }
    for (size_t j = 0; j < p.outs.size(); ++j) n.outs.push_back(output(node, int32_t(j), p.outs[j]));
    g_.nodes.push_back(std::move(n));
  }

  Graph finish() {
    // An input some op overwrote ends as whatever value its impl maps to now.
    for (ValueId v : g_.tensor_inputs) {
      ValueId last = current_.at(input_impls_[size_t(g_.values[size_t(v)].input_index)]);
      if (last != v) g_.mutations.emplace_back(v, last);
    }
    return std::move(g_);
  }

 private:
  NodeArg arg(const ArgSpec& spec, const Value& v) {
    NodeArg a;
    if (v.is_tensor() || (v.is_none() && spec.type == ArgType::Tensor)) {
      a.kind = NodeArg::Kind::Tensor;
      a.value = v.is_tensor() ? tensor(v.tensor()) : -1;
    } else if (v.is_tensor_list()) {
      a.kind = NodeArg::Kind::TensorList;
      for (const Tensor& t : v.tensor_list()) {
        use_.second = (use_.second & 0xffff) | int32_t((a.list.size() + 1) << 16);
        a.list.push_back(tensor(t));
      }
    } else if (spec.type == ArgType::Scalar && v.is_number()) {
      a.kind = NodeArg::Kind::Scalar;
      a.value = scalar(v);
    } else {
      a.constant = v;
    }
    return a;
  }

  // The value an argument tensor holds now; a tensor no earlier op wrote is a new input.
  ValueId tensor(const Tensor& t) {
    if (!t.defined()) return -1;
    auto [it, fresh] = current_.try_emplace(t.impl(), ValueId(g_.values.size()));
    if (!fresh) return it->second;
    size_t k = g_.tensor_inputs.size();
    IrValue v = describe(t);
    v.kind = IrValue::Kind::TensorInput;
    v.input_index = int32_t(k);
    v.dynamic_dims = (dynamic_ ? dynamic_->mask(k) : 0) | t.impl()->dynamic_dims;
    v.use_node = use_.first;
    v.use_arg = use_.second & 0xffff;
    v.use_elem = (use_.second >> 16) - 1;
    g_.values.push_back(std::move(v));
    g_.tensor_inputs.push_back(it->second);
    input_impls_.push_back(t.impl());
    return it->second;
  }

  ValueId scalar(const Value& v) {
    IrValue s;
    s.kind = IrValue::Kind::ScalarInput;
    s.dtype = v.is_double() ? DType::Float64 : v.is_int() ? DType::Int64 : DType::Bool;
    s.input_index = int32_t(g_.scalar_inputs.size());
    ValueId id = ValueId(g_.values.size());
    g_.values.push_back(std::move(s));
    g_.scalar_inputs.push_back(id);
    return id;
  }

  // Any write to a tensor that already has a value (an in-place op's self)
  // defines a new version of it, which later uses read.
  ValueId output(int32_t node, int32_t j, const Tensor& t) {
    ValueId id = ValueId(g_.values.size());
    IrValue v = t.defined() ? describe(t) : IrValue{};
    v.node = node;
    v.out_index = j;
    if (t.defined()) {
      auto [it, fresh] = current_.try_emplace(t.impl(), id);
      if (!fresh) {
        v.version_of = it->second;
        it->second = id;
      }
    }
    g_.values.push_back(std::move(v));
    return id;
  }

  static IrValue describe(const Tensor& t) {
    const TensorImpl& i = *t.impl();
    IrValue v;
    v.dtype = i.dtype;
    v.sizes = i.sizes;
    v.strides = i.strides;
    v.requires_grad = t.requires_grad();
    return v;
  }

  const DynamicDims* dynamic_;
  // The argument being bound: node, and arg | (list element + 1) << 16.
  std::pair<int32_t, int32_t> use_{-1, 0};
  Graph g_;
  std::unordered_map<const TensorImpl*, ValueId> current_;
  std::vector<const TensorImpl*> input_impls_;  // by tensor input index
};

// ---- symbolic dims ---------------------------------------------------------

// A dynamic dim's symbol: (tensor input, dim), printed s<input>_<dim>.
struct Sym {
  int32_t input = -1;
  int32_t dim = 0;
  bool known() const { return input >= 0; }
};

// Per value, per dim, the symbol it carries. Shape functions are not
// symbolic, so an output dim takes the symbol of a dynamic dim of one of its
// node's tensor arguments with the same example size: right for the
// broadcasts, matmuls and reductions that carry a batch dim through, a guess
// when two symbols share an example size. For reading only: guards and the
// structural hash rely on input dims alone.
std::vector<std::vector<Sym>> dim_symbols(const Graph& g) {
  std::vector<std::vector<Sym>> syms(g.values.size());
  for (size_t id = 0; id < g.values.size(); ++id) {
    const IrValue& v = g.values[id];
    syms[id].resize(v.sizes.size());
    if (v.kind == IrValue::Kind::TensorInput) {
      for (size_t d = 0; d < v.sizes.size() && d < 64; ++d)
        if (v.dynamic_dims >> d & 1) syms[id][d] = Sym{v.input_index, int32_t(d)};
      continue;
    }
    if (v.kind != IrValue::Kind::NodeOutput || v.node < 0) continue;
    auto match = [&](ValueId from, size_t d) {
      if (from < 0 || syms[size_t(from)].empty()) return;
      const IrValue& src = g.values[size_t(from)];
      for (size_t e = 0; e < src.sizes.size(); ++e)
        if (syms[size_t(from)][e].known() && src.sizes[e] == v.sizes[d]) {
          syms[id][d] = syms[size_t(from)][e];
          return;
        }
    };
    for (size_t d = 0; d < v.sizes.size(); ++d)
      for (const NodeArg& a : g.nodes[size_t(v.node)].args) {
        if (a.kind == NodeArg::Kind::Tensor) match(a.value, d);
        for (ValueId e : a.list) match(e, d);
        if (syms[id][d].known()) break;
      }
  }
  return syms;
}

void mark_output_dims(Graph& g) {
  auto syms = dim_symbols(g);
  for (size_t id = 0; id < g.values.size(); ++id) {
    IrValue& v = g.values[id];
    if (v.kind != IrValue::Kind::NodeOutput) continue;
    for (size_t d = 0; d < syms[id].size() && d < 64; ++d)
      if (syms[id][d].known()) v.dynamic_dims |= uint64_t(1) << d;
  }
}

// ---- text ------------------------------------------------------------------

std::string_view short_dtype(DType d) {
  switch (d) {
    case DType::Bool: return "b8";
    case DType::UInt8: return "u8";
    case DType::Int8: return "i8";
    case DType::Int16: return "i16";
    case DType::Int32: return "i32";
    case DType::Int64: return "i64";
    case DType::Float16: return "f16";
    case DType::BFloat16: return "bf16";
    case DType::Float32: return "f32";
    case DType::Float64: return "f64";
  }
  return "?";
}

std::string int_list(const Shape& s) {
  std::string out = "[";
  for (size_t i = 0; i < s.size(); ++i) out += (i ? ", " : "") + std::to_string(s[i]);
  return out + "]";
}

std::string constant_text(const Value& v) {
  if (v.is_none()) return "None";
  if (v.is_bool()) return v.to_bool() ? "True" : "False";
  if (v.is_int()) return std::to_string(v.to_int());
  if (v.is_double()) return format_double(v.to_double());
  if (v.is_int_list()) return int_list(v.int_list());
  if (v.is_dtype()) return detail::cat("torch.", dtype_name(v.dtype()));
  if (v.is_string()) return detail::cat("'", v.str(), "'");
  return detail::cat("<", v.type_name(), ">");  // tensors are never constants
}

// A dynamic int argument: its value changes from run to run, its length does not.
std::string dynamic_text(const Value& v) {
  if (!v.is_int_list()) return "?";
  std::string out = "[";
  for (size_t i = 0; i < v.int_list().size(); ++i) out += i ? ", ?" : "?";
  return out + "]";
}

class TextWriter {
 public:
  TextWriter(const Graph& g, const SiteNames* sites) : g_(g), sites_(sites), syms_(dim_symbols(g)) {
    // Tensor inputs are %0.. in input order, node outputs follow in order of
    // definition, scalar inputs are %s0, %s1, ...
    names_.resize(g.values.size());
    size_t next = 0;
    for (ValueId v : g.tensor_inputs) names_[size_t(v)] = detail::cat("%", next++);
    for (ValueId v : g.scalar_inputs) names_[size_t(v)] = detail::cat("%s", g.values[size_t(v)].input_index);
    for (size_t id = 0; id < g.values.size(); ++id)
      if (g.values[id].kind == IrValue::Kind::NodeOutput) names_[id] = detail::cat("%", next++);
  }

  std::string write() {
    std::string out = "graph(";
    bool first = true;
    for (ValueId v : g_.tensor_inputs) out += (std::exchange(first, false) ? "" : ", ") + typed(v);
    for (ValueId v : g_.scalar_inputs) out += (std::exchange(first, false) ? "" : ", ") + typed(v);
    out += "):\n";
    for (const Node& n : g_.nodes)
      if (!n.dead) out += node(n);
    return out + returns();
  }

 private:
  std::string name(ValueId v) const { return v < 0 ? "None" : names_[size_t(v)]; }

  std::string type(ValueId id) const {
    const IrValue& v = g_.values[size_t(id)];
    std::string out(short_dtype(v.dtype));
    if (v.kind == IrValue::Kind::ScalarInput) return out;
    out += "[";
    for (size_t d = 0; d < v.sizes.size(); ++d) {
      const Sym& s = syms_[size_t(id)][d];
      out += d ? ", " : "";
      out += s.known() ? detail::cat("s", s.input, "_", s.dim) : std::to_string(v.sizes[d]);
    }
    out += "]";
    if (v.dynamic_dims == 0 && !contiguous(v)) out += detail::cat(" strides=", int_list(v.strides));
    return out;
  }

  std::string typed(ValueId v) const { return name(v) + ": " + type(v); }

  std::string node(const Node& n) const {
    std::string line = "  ";
    for (size_t j = 0; j < n.outs.size(); ++j) line += (j ? ", " : "") + typed(n.outs[j]);
    line += detail::cat(" = ", n.op->name(), "(");
    for (size_t a = 0; a < n.args.size(); ++a) line += (a ? ", " : "") + arg(n.op->schema.args[a], n.args[a]);
    line += ")";
    if (!n.outs.empty() && g_.values[size_t(n.outs[0])].version_of >= 0)
      line += detail::cat(" !mutates ", name(g_.values[size_t(n.outs[0])].version_of));
    if (n.steal_source) line += " !steals_source";
    std::string site = sites_ ? sites_->name(n.site) : "";
    if (!site.empty()) {
      if (line.size() < 52) line.resize(52, ' ');
      line += detail::cat("  # ", site);
    }
    return line + "\n";
  }

  std::string arg(const ArgSpec& spec, const NodeArg& a) const {
    std::string key = spec.kwarg_only || (a.kind != NodeArg::Kind::Tensor && a.kind != NodeArg::Kind::TensorList)
                          ? spec.name + "="
                          : "";
    switch (a.kind) {
      case NodeArg::Kind::Tensor:
      case NodeArg::Kind::Scalar: return key + name(a.value);
      case NodeArg::Kind::TensorList: {
        std::string out = key + "[";
        for (size_t i = 0; i < a.list.size(); ++i) out += (i ? ", " : "") + name(a.list[i]);
        return out + "]";
      }
      case NodeArg::Kind::Const: return key + (a.dynamic ? dynamic_text(a.constant) : constant_text(a.constant));
    }
    return key;
  }

  // The graph does not know which tensors the script keeps, so it names the
  // outputs no later node reads (the executor keeps every output anyway).
  std::string returns() const {
    std::vector<bool> read(g_.values.size(), false);
    for (const Node& n : g_.nodes) {
      if (n.dead) continue;
      for (const NodeArg& a : n.args) {
        if (a.kind == NodeArg::Kind::Tensor && a.value >= 0) read[size_t(a.value)] = true;
        for (ValueId e : a.list)
          if (e >= 0) read[size_t(e)] = true;
      }
    }
    std::vector<bool> mutated_final(g_.values.size(), false);
    for (auto [in, last] : g_.mutations) mutated_final[size_t(last)] = true;
    std::string out = "  return (";
    bool first = true;
    for (const Node& n : g_.nodes) {
      if (n.dead) continue;
      for (ValueId o : n.outs)
        if (!read[size_t(o)] && !mutated_final[size_t(o)]) out += (std::exchange(first, false) ? "" : ", ") + name(o);
    }
    out += ")";
    if (!g_.mutations.empty()) {
      out += ", mutated (";
      for (size_t i = 0; i < g_.mutations.size(); ++i)
        out += detail::cat(i ? ", " : "", name(g_.mutations[i].first), " <- ", name(g_.mutations[i].second));
      out += ")";
    }
    return out + "\n";
  }

  const Graph& g_;
  const SiteNames* sites_;
  std::vector<std::vector<Sym>> syms_;
  std::vector<std::string> names_;
};

// ---- hashing ---------------------------------------------------------------

// FNV-1a over a canonical byte serialization: no pointers, op names not addresses.
class Fnv {
 public:
  void bytes(const void* p, size_t n) {
    auto* b = static_cast<const unsigned char*>(p);
    for (size_t i = 0; i < n; ++i) h_ = (h_ ^ b[i]) * 0x100000001b3ull;
  }
  void u64(uint64_t v) { bytes(&v, sizeof v); }
  void i64(int64_t v) { u64(uint64_t(v)); }
  void str(std::string_view s) {
    u64(s.size());
    bytes(s.data(), s.size());
  }
  uint64_t value() const { return h_; }

 private:
  uint64_t h_ = 0xcbf29ce484222325ull;
};

void hash_constant(Fnv& h, const Value& v) {
  h.u64(v.var().index());
  if (v.is_bool() || v.is_int()) h.i64(v.to_int());
  if (v.is_double()) h.u64(std::bit_cast<uint64_t>(v.to_double()));
  if (v.is_dtype()) h.u64(uint64_t(v.dtype()));
  if (v.is_string()) h.str(v.str());
  if (v.is_int_list()) {
    h.u64(v.int_list().size());
    for (int64_t x : v.int_list()) h.i64(x);
  }
}

// Strides as the guards see them: a dim laid out contiguously after the dims
// to its right hashes as "contiguous", so a dynamic size does not change it.
void hash_input(Fnv& h, const IrValue& v) {
  h.u64(uint64_t(v.kind));
  h.u64(uint64_t(v.dtype));
  h.u64(v.requires_grad);
  h.u64(v.dynamic_dims);
  h.u64(v.sizes.size());
  int64_t expected = 1;
  for (size_t d = v.sizes.size(); d-- > 0;) {
    bool dyn = d < 64 && (v.dynamic_dims >> d & 1);
    bool contig = v.sizes[d] == 1 || v.strides[d] == expected;
    if (!dyn) {
      h.i64(v.sizes[d]);
      h.i64(contig ? -1 : v.strides[d]);
    }
    expected *= v.sizes[d];
  }
}

}  // namespace

Graph build_graph(std::span<const lazy::PendingOp> ops, const DynamicDims* dynamic) {
  Builder b(dynamic);
  for (const lazy::PendingOp& p : ops) b.add(p);
  Graph g = b.finish();
  mark_output_dims(g);
  return g;
}

// collect_inputs is in guards.cpp: it runs at every flush beside make_signature
// and shares its allocation-free tensor index.

std::string to_text(const Graph& g, const SiteNames* sites) { return TextWriter(g, sites).write(); }

// Node outputs' sizes follow from the inputs, ops and constants, so only their
// dtypes and versions are hashed: a graph with dynamic dims hashes the same
// whatever example sizes it was built from.
uint64_t structural_hash(const Graph& g) {
  Fnv h;
  h.u64(g.tensor_inputs.size());
  for (ValueId v : g.tensor_inputs) hash_input(h, g.values[size_t(v)]);
  h.u64(g.scalar_inputs.size());
  for (ValueId v : g.scalar_inputs) h.u64(uint64_t(g.values[size_t(v)].dtype));
  h.u64(g.nodes.size());
  for (const Node& n : g.nodes) {
    h.str(n.op->name());
    h.u64(n.args.size());
    for (const NodeArg& a : n.args) {
      h.u64(uint64_t(a.kind));
      if (a.kind == NodeArg::Kind::Tensor || a.kind == NodeArg::Kind::Scalar) h.i64(a.value);
      if (a.kind == NodeArg::Kind::TensorList) {
        h.u64(a.list.size());
        for (ValueId e : a.list) h.i64(e);
      }
      if (a.kind == NodeArg::Kind::Const && !a.dynamic) hash_constant(h, a.constant);
      if (a.dynamic) h.u64(a.constant.is_int_list() ? a.constant.int_list().size() : ~uint64_t(0));
    }
    h.u64(n.outs.size());
    for (ValueId o : n.outs) {
      h.i64(o);
      h.u64(uint64_t(g.values[size_t(o)].dtype));
      h.i64(g.values[size_t(o)].version_of);
    }
  }
  h.u64(g.mutations.size());
  for (auto [in, last] : g.mutations) {
    h.i64(in);
    h.i64(last);
  }
  return h.value();
}

bool contiguous(const IrValue& v) {
  int64_t expected = 1;
  for (size_t d = v.sizes.size(); d-- > 0;) {
    if (v.sizes[d] == 1) continue;
    if (v.strides[d] != expected) return false;
    expected *= v.sizes[d];
  }
  return true;
}

}  // namespace kiln::jit

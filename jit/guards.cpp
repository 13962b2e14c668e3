#include "jit/guards.h"

#include <algorithm>
#include <bit>
#include <cstring>
#include <type_traits>
#include <variant>

#include "core/format.h"
#include "jit/graph.h"

namespace kiln::jit {

namespace {

using What = Guard::What;

// ArgKind values: the index of each alternative in Value::Var.
enum Alt : uint64_t { kNone, kTensor, kInt, kFloat, kBool, kIntList, kTensorList, kDType, kStr };
static_assert(std::is_same_v<std::variant_alternative_t<kTensor, Value::Var>, Tensor>);
static_assert(std::is_same_v<std::variant_alternative_t<kFloat, Value::Var>, double>);
static_assert(std::is_same_v<std::variant_alternative_t<kTensorList, Value::Var>, std::vector<Tensor>>);
static_assert(std::is_same_v<std::variant_alternative_t<kStr, Value::Var>, std::string>);

// Source values besides a node output's (node << 16 | out) + 1.
constexpr uint64_t kNewInput = 0;
constexpr uint64_t kSameInput = uint64_t(1) << 63;  // | input: a tensor input used again
constexpr uint64_t kNoTensor = ~uint64_t(0);          // None or an undefined tensor
// InputStride value of a dim laid out contiguously after the dims to its right
// (or of size 1): then a dynamic dim's size does not leak into other strides.
constexpr uint64_t kContiguous = uint64_t(1) << 63;

uint64_t node_source(size_t node, size_t out) { return (uint64_t(node) << 16 | out) + 1; }

uint64_t input_dtype_value(const TensorImpl& t) {
  Device dev = t.storage ? t.storage->device : Device{};
  return uint64_t(t.dtype) | uint64_t(t.is_wrapped_number) << 8 | uint64_t(dev.type) << 16 |
         uint64_t(uint32_t(dev.index)) << 24;
}

uint64_t fnv(std::string_view s) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (unsigned char c : s) h = (h ^ c) * 0x100000001b3ull;
  return h;
}

// ---- the per-thread tensor index -------------------------------------------

// What each tensor of a region is (an input's number, a node output), keyed by
// TensorImpl: open addressing over a buffer kept per thread, so a flush
// allocates nothing once warm and clears only the part it uses.
class ImplIndex {
 public:
  static ImplIndex& reset_for_thread(size_t expected_tensors) {
    thread_local ImplIndex index;
    index.reset(expected_tensors);
    return index;
  }

  // The value slot of p; `fresh` says it was not there before.
  [[gnu::always_inline]] uint64_t& at(const TensorImpl* p, bool& fresh) {
    if ((used_ + 1) * 2 > cap_) grow();
    size_t i = slot_of(p);
    while (slots_[i].key && slots_[i].key != p) i = (i + 1) & (cap_ - 1);
    fresh = slots_[i].key == nullptr;
    if (fresh) {
      slots_[i] = {p, 0};
      ++used_;
    }
    return slots_[i].value;
  }

 private:
  struct Slot {
    const TensorImpl* key = nullptr;
    uint64_t value = 0;
  };

  void reset(size_t expected) {
    cap_ = 64;
    shift_ = 58;
    while (cap_ < expected * 2) {
      cap_ <<= 1;
      --shift_;
    }
    if (slots_.size() < cap_) slots_.resize(cap_);
    std::fill_n(slots_.begin(), cap_, Slot{});
    used_ = 0;
  }

  void grow() {
    std::vector<Slot> old(slots_.begin(), slots_.begin() + ptrdiff_t(cap_));
    reset(cap_);
    for (const Slot& s : old)
      if (s.key) {
        bool fresh;
        at(s.key, fresh) = s.value;
      }
  }

  size_t slot_of(const TensorImpl* p) const {
    return size_t((uint64_t(reinterpret_cast<uintptr_t>(p)) * 0x9E3779B97F4A7C15ull) >> shift_);
  }

  std::vector<Slot> slots_;
  size_t cap_ = 0, used_ = 0;
  unsigned shift_ = 58;
};

size_t tensors_estimate(std::span<const lazy::PendingOp> ops) { return ops.size() * 3; }

// ---- building a signature ---------------------------------------------------

// Each op's index in op_table().all(): a flat open-addressing table built
// once, a few nanoseconds a lookup.
class OpIndex {
 public:
  OpIndex() {
    const auto& all = op_table().all();
    size_t cap = 16;
    while (cap < all.size() * 4) cap <<= 1;
    slots_.resize(cap);
    for (size_t i = 0; i < all.size(); ++i) {
      size_t s = slot_of(all[i]);
      while (slots_[s].op) s = (s + 1) & (slots_.size() - 1);
      slots_[s] = {all[i], uint32_t(i)};
    }
  }
  static const OpIndex& get() {
    static const OpIndex index;
    return index;
  }
  // The op's index, or -1 for an op not in the table.
  int64_t find(const OpDef* op) const {
    for (size_t s = slot_of(op);; s = (s + 1) & (slots_.size() - 1)) {
      if (slots_[s].op == op) return slots_[s].index;
      if (!slots_[s].op) return -1;
    }
  }

 private:
  struct Slot {
    const OpDef* op = nullptr;
    uint32_t index = 0;
  };
  size_t slot_of(const OpDef* op) const {
    return size_t((uint64_t(reinterpret_cast<uintptr_t>(op)) * 0x9E3779B97F4A7C15ull) >> 32) & (slots_.size() - 1);
  }
  std::vector<Slot> slots_;
};

// The signature's hash, folded in as each guard is written. The multiplies
// stay off the dependency chain (rotate + add), so it hides behind the writing.
class GuardHash {
 public:
  void add(const Guard& g) {
    uint64_t head;
    std::memcpy(&head, &g, sizeof head);  // node, arg, what, dim
    h_ = std::rotl(h_, 23) + ((head ^ (g.value * 0xC2B2AE3D27D4EB4Full)) * 0x165667B19E3779F9ull);
  }
  uint64_t finish(size_t count) const {
    uint64_t h = h_ ^ count;
    h ^= h >> 33;
    h *= 0xFF51AFD7ED558CCDull;
    h ^= h >> 33;
    return h;
  }

 private:
  uint64_t h_ = 0x9E3779B97F4A7C15ull;
};

// Writes guards into a per-thread scratch array, growing it only between
// arguments (`room`), so the inner loop is a plain store; the signature then
// takes one exact-size copy.
class SignatureWriter {
 public:
  SignatureWriter(const DynamicSpec& dynamic, ImplIndex& index)
      : dynamic_(dynamic), index_(index), ops_(OpIndex::get()) {
    thread_local std::vector<Guard> scratch;
    buf_ = &scratch;
    if (buf_->size() < 256) buf_->resize(256);
    data_ = buf_->data();
  }

  void op(uint32_t node, const lazy::PendingOp& p) {
    KILN_CHECK(p.op, Runtime, "jit: a pending op has no op");
    int64_t index = ops_.find(p.op);
    KILN_CHECK(index >= 0, Runtime, "jit: op `", p.op->name(), "` is not in the op table");
    const Schema& s = p.op->schema;
    KILN_CHECK(p.args.size() == s.args.size(), Runtime, "jit: pending `", s.name, "` has ", p.args.size(),
               " arguments, its schema ", s.args.size());
    node_ = node;
    arg_ = 0;
    room(1);
    push(What::Op, uint64_t(index));
    for (size_t a = 0; a < p.args.size(); ++a) {
      arg_ = uint16_t(a);
      argument(s.args[a], p.args[a]);
    }
    for (size_t j = 0; j < p.outs.size(); ++j) {
      if (!p.outs[j].defined()) continue;
      bool fresh;
      index_.at(p.outs[j].impl(), fresh) = node_source(node, j);
    }
  }

  std::vector<Guard> take() const { return {data_, data_ + n_}; }
  uint64_t hash() const { return hash_.finish(n_); }

 private:
  void room(size_t k) {
    if (n_ + k <= buf_->size()) return;
    buf_->resize(std::max(buf_->size() * 2, n_ + k));
    data_ = buf_->data();
  }
  [[gnu::always_inline]] void push(What w, uint64_t value, size_t dim = 0) {
    Guard g{.node = node_, .arg = arg_, .what = uint8_t(w), .dim = uint8_t(dim), .value = value};
    data_[n_++] = g;
    hash_.add(g);
  }

  // A Python number where the schema takes a Scalar is a graph input: only its type is guarded.
  void argument(const ArgSpec& spec, const Value& v) {
    room(3);
    if (spec.type == ArgType::Scalar && v.is_number()) {
      push(What::ScalarType, v.is_int() ? 0 : v.is_double() ? 1 : 2);
      return;
    }
    uint64_t alt = v.var().index();
    push(What::ArgKind, alt);
    if ((alt == kInt || alt == kIntList) && dynamic_.int_arg(node_, arg_)) {
      if (alt == kIntList) push(What::ListLength, v.int_list().size());
      return;  // its value is read from each run's op
    }
    switch (alt) {
      case kTensor: tensor(v.tensor(), 0); break;
      case kTensorList: {
        const auto& list = v.tensor_list();
        push(What::ListLength, list.size());
        for (size_t e = 0; e < list.size(); ++e) tensor(list[e], e);
        break;
      }
      case kIntList: {
        const Shape& ints = v.int_list();
        push(What::ListLength, ints.size());
        room(ints.size());
        for (size_t e = 0; e < ints.size(); ++e) push(What::ConstValue, uint64_t(ints[e]), e);
        break;
      }
      case kInt:
      case kBool: push(What::ConstValue, uint64_t(v.to_int())); break;
      case kFloat: push(What::ConstValue, std::bit_cast<uint64_t>(v.to_double())); break;
      case kDType: push(What::ConstValue, uint64_t(v.dtype())); break;
      case kStr: push(What::ConstValue, fnv(v.str())); break;
      default: break;  // None: the kind says it all
    }
  }

  void tensor(const Tensor& t, size_t elem) {
    room(1);
    if (!t.defined()) return push(What::Source, kNoTensor, elem);
    bool fresh;
    uint64_t& source = index_.at(t.impl(), fresh);
    if (!fresh) return push(What::Source, source, elem);
    size_t k = inputs_++;
    source = kSameInput | k;
    push(What::Source, kNewInput, elem);
    input(*t.impl(), dynamic_.mask(k) | t.impl()->dynamic_dims);  // torch._dynamo.mark_dynamic too
  }

  void input(const TensorImpl& t, uint64_t dynamic) {
    auto is_dynamic = [&](size_t d) { return d < 64 && (dynamic >> d & 1); };
    size_t rank = t.sizes.size();
    room(3 + 2 * rank);
    push(What::InputDType, input_dtype_value(t));
    push(What::InputRank, rank);
    for (size_t d = 0; d < rank; ++d)
      if (!is_dynamic(d)) push(What::InputDim, uint64_t(t.sizes[d]), d);
    int64_t expected = 1;
    for (size_t d = rank; d-- > 0;) {
      bool contiguous = t.sizes[d] == 1 || t.strides[d] == expected;
      if (!is_dynamic(d)) push(What::InputStride, contiguous ? kContiguous : uint64_t(t.strides[d]), d);
      expected *= t.sizes[d];
    }
    push(What::InputRequiresGrad, t.requires_grad || t.grad_fn != nullptr);
  }

  const DynamicSpec& dynamic_;
  ImplIndex& index_;
  const OpIndex& ops_;
  std::vector<Guard>* buf_;
  Guard* data_;
  size_t n_ = 0;
  GuardHash hash_;
  uint32_t node_ = 0;
  uint16_t arg_ = 0;
  size_t inputs_ = 0;
};

// ---- explaining a mismatch -------------------------------------------------

// What a guard is about, found by reading the guards before it: which
// argument, which list element, which tensor input.
struct Context {
  uint32_t node = ~0u;
  uint16_t arg = 0;
  uint64_t alt = kNone;  // the argument's ArgKind
  int elem = -1;         // element of a list argument
  int input = -1;        // the tensor input the guard checks
  size_t inputs = 0;     // tensor inputs seen so far

  void step(const Guard& g) {
    What w = What(g.what);
    if (w == What::Op || g.node != node || g.arg != arg) {
      node = g.node;
      arg = g.arg;
      alt = kNone;
      elem = -1;
      input = -1;
    }
    if (w == What::ArgKind) alt = g.value;
    if (w == What::Source || (w == What::ConstValue && alt == kIntList)) ++elem;
    if (w == What::Source) input = source_input(g.value);
  }

 private:
  int source_input(uint64_t s) {
    if (s == kNewInput) return int(inputs++);
    if (s != kNoTensor && (s & kSameInput)) return int(s & ~kSameInput);
    return -1;
  }
};

const char* alt_name(uint64_t alt) {
  static const char* kNames[] = {"NoneType", "Tensor", "int", "float", "bool", "tuple of ints",
                                 "list of Tensors", "torch.dtype", "str"};
  return alt < std::size(kNames) ? kNames[alt] : "?";
}

const char* scalar_type_name(uint64_t t) { return t == 0 ? "int" : t == 1 ? "float" : "bool"; }

std::string op_name_at(uint64_t index) {
  const auto& all = op_table().all();
  return index < all.size() ? all[index]->name() : detail::cat("op #", index);
}

std::string dtype_text(uint64_t v) { return detail::cat("torch.", dtype_name(DType(v & 0xff))); }
std::string device_text(uint64_t v) {
  return Device{.type = DeviceType((v >> 16) & 0xff), .index = int(uint32_t(v >> 24))}.str();
}
std::string bool_text(uint64_t v) { return v ? "True" : "False"; }

class Explainer {
 public:
  Explainer(std::span<const lazy::PendingOp> ops, std::string (*site_name)(uint32_t))
      : ops_(ops), site_name_(site_name) {}

  Mismatch explain(const Guard& want, const Guard& got, const Context& c) const {
    What w = What(got.what);
    if (want.what != got.what || want.node != got.node || want.arg != got.arg || want.dim != got.dim)
      return different_checks(want, got, c);
    if (w == What::Op)
      return {.guard = op_prefix(got.node) + ": op", .expected = op_name_at(want.value), .actual = op_name_at(got.value)};
    std::string at = arg_prefix(c);
    std::string dim = std::to_string(got.dim);
    switch (w) {
      case What::ArgKind: return {at + ": type", alt_name(want.value), alt_name(got.value)};
      case What::ScalarType:
        return {at + ": type of the Python number", scalar_type_name(want.value), scalar_type_name(got.value),
                detail::cat("pass `", arg_name(c), "` as a tensor (torch.tensor(...)), or always as the same Python type")};
      case What::Source:
        return {at + ": where the tensor comes from", source_text(want.value), source_text(got.value)};
      case What::InputDType: return dtype_mismatch(at, want.value, got.value);
      case What::InputRank: return {at + ": number of dims", std::to_string(want.value), std::to_string(got.value)};
      case What::InputDim:
        return {detail::cat(at, ": size of dim ", dim), std::to_string(int64_t(want.value)), std::to_string(int64_t(got.value)),
                detail::cat("torch._dynamo.mark_dynamic(", arg_name(c), ", ", dim, ") makes the dim symbolic")};
      case What::InputStride: return {detail::cat(at, ": stride of dim ", dim), stride_text(want.value), stride_text(got.value)};
      case What::InputRequiresGrad: return {at + ": requires_grad", bool_text(want.value), bool_text(got.value)};
      case What::ConstValue: return constant_mismatch(at, want.value, got.value, c);
      case What::ListLength: return {at + ": length of the list", std::to_string(want.value), std::to_string(got.value)};
      case What::Op: break;
    }
    return {at, std::to_string(want.value), std::to_string(got.value)};
  }

  Mismatch op_count(size_t want, size_t got) const {
    return {.guard = "number of ops in the region", .expected = std::to_string(want), .actual = std::to_string(got)};
  }

 private:
  const OpDef* op_at(uint32_t node) const { return node < ops_.size() ? ops_[node].op : nullptr; }

  std::string op_prefix(uint32_t node) const {
    const OpDef* op = op_at(node);
    std::string s = detail::cat("`", op ? op->name() : "op", "`");
    std::string site = node < ops_.size() && ops_[node].site && site_name_ ? site_name_(ops_[node].site) : "";
    return site.empty() ? detail::cat(s, " (op ", node, " of the region)") : detail::cat(s, " at ", site);
  }

  std::string arg_name(const Context& c) const {
    const OpDef* op = op_at(c.node);
    std::string name = op && c.arg < op->schema.args.size() ? op->schema.args[c.arg].name : detail::cat("#", c.arg);
    return c.alt == kTensorList && c.elem >= 0 ? detail::cat(name, "[", c.elem, "]") : name;
  }

  std::string arg_prefix(const Context& c) const {
    std::string s = detail::cat(op_prefix(c.node), ", argument `", arg_name(c), "`");
    if (c.alt == kIntList && c.elem >= 0) s += detail::cat(", element ", c.elem);
    if (c.input >= 0) s += detail::cat(" (input ", c.input, ")");
    return s;
  }

  std::string source_text(uint64_t s) const {
    if (s == kNewInput) return "a new input";
    if (s == kNoTensor) return "None";
    if (s & kSameInput) return detail::cat("input ", s & ~kSameInput, " again");
    uint64_t node = (s - 1) >> 16, out = (s - 1) & 0xffff;
    const OpDef* op = op_at(uint32_t(node));
    return detail::cat("output ", out, " of op ", node, op ? detail::cat(" (`", op->name(), "`)") : "");
  }

  static std::string stride_text(uint64_t v) { return v == kContiguous ? "contiguous" : std::to_string(int64_t(v)); }

  static Mismatch dtype_mismatch(const std::string& at, uint64_t want, uint64_t got) {
    if ((want & 0xff) != (got & 0xff)) return {at + ": dtype", dtype_text(want), dtype_text(got)};
    if ((want >> 16) != (got >> 16)) return {at + ": device", device_text(want), device_text(got)};
    return {at + ": a Python number (wrapped scalar)", bool_text(want >> 8 & 1), bool_text(got >> 8 & 1)};
  }

  Mismatch constant_mismatch(const std::string& at, uint64_t want, uint64_t got, const Context& c) const {
    auto text = [&](uint64_t v) -> std::string {
      switch (c.alt) {
        case kInt:
        case kIntList: return std::to_string(int64_t(v));
        case kBool: return bool_text(v);
        case kFloat: return format_double(std::bit_cast<double>(v));
        case kDType: return dtype_text(v);
        default: return "";
      }
    };
    if (c.alt == kStr) {
      const OpDef* op = op_at(c.node);
      const Value* now = op ? &ops_[c.node].args[c.arg] : nullptr;
      return {at + ": value", "another str", now && now->is_string() ? detail::cat("'", now->str(), "'") : "another str"};
    }
    Mismatch m{at + ": value", text(want), text(got)};
    if (c.alt == kInt)
      m.fix = detail::cat("the graph is specialized on `", arg_name(c),
                          "`; if it changes from call to call, pass the value as a tensor so it becomes a graph input");
    return m;
  }

  // The guards themselves differ: the two signatures were made with different
  // dynamic dims, or one argument's type changed under a ScalarType guard.
  Mismatch different_checks(const Guard& want, const Guard& got, const Context& c) const {
    auto type_of = [](const Guard& g) -> std::string {
      if (What(g.what) == What::ScalarType) return scalar_type_name(g.value);
      if (What(g.what) == What::ArgKind) return alt_name(g.value);
      return "";
    };
    if (want.node == got.node && want.arg == got.arg && !type_of(want).empty() && !type_of(got).empty())
      return {arg_prefix(c) + ": type", type_of(want), type_of(got)};
    return {arg_prefix(c) + ": what is checked (were different dims marked dynamic?)",
            detail::cat("check #", int(want.what), " of dim ", int(want.dim)),
            detail::cat("check #", int(got.what), " of dim ", int(got.dim))};
  }

  std::span<const lazy::PendingOp> ops_;
  std::string (*site_name_)(uint32_t);
};

// Whether the int argument a context points at names dims (sum's dim,
// transpose's dim0, flatten's start_dim, movedim's source): those pick what a
// kernel computes, so a change recompiles (torch.compile specializes a SymInt
// used as a dim, too). Other ints are sizes, offsets, indices and counts.
bool names_dims(std::span<const lazy::PendingOp> ops, const Context& c) {
  if (c.node >= ops.size() || !ops[c.node].op) return true;
  const auto& args = ops[c.node].op->schema.args;
  if (c.arg >= args.size()) return true;
  const std::string& name = args[c.arg].name;
  return name.find("dim") != std::string::npos || name.find("axis") != std::string::npos || name == "source" ||
         name == "destination";
}

bool same_check(const Guard& a, const Guard& b) {
  return a.node == b.node && a.arg == b.arg && a.what == b.what && a.dim == b.dim;
}

}  // namespace

bool DynamicSpec::int_arg(uint32_t node, uint32_t arg) const {
  return !ints.empty() && std::binary_search(ints.begin(), ints.end(), uint64_t(node) << 32 | arg);
}

void DynamicSpec::add_int(uint32_t node, uint32_t arg) {
  uint64_t key = uint64_t(node) << 32 | arg;
  auto at = std::lower_bound(ints.begin(), ints.end(), key);
  if (at == ints.end() || *at != key) ints.insert(at, key);
}

bool DynamicSpec::any() const {
  return !ints.empty() || std::any_of(masks.begin(), masks.end(), [](uint64_t m) { return m != 0; });
}

Signature make_signature(std::span<const lazy::PendingOp> ops, const DynamicSpec& dynamic) {
  Signature s;
  SignatureWriter w(dynamic, ImplIndex::reset_for_thread(tensors_estimate(ops)));
  for (size_t i = 0; i < ops.size(); ++i) w.op(uint32_t(i), ops[i]);
  s.guards = w.take();
  s.hash = w.hash();
  return s;
}

// Here rather than in graph.cpp: it runs at every flush beside make_signature
// and numbers inputs the same way, with the same allocation-free index.
GraphInputs collect_inputs(std::span<const lazy::PendingOp> ops) {
  GraphInputs in;
  in.tensors.reserve(ops.size() + 4);
  in.scalars.reserve(ops.size());
  ImplIndex& index = ImplIndex::reset_for_thread(tensors_estimate(ops));
  auto tensor = [&](const Tensor& t) {
    if (!t.defined()) return;
    bool fresh;
    index.at(t.impl(), fresh);
    if (fresh) in.tensors.push_back(t);
  };
  for (const lazy::PendingOp& p : ops) {
    KILN_CHECK(p.op, Runtime, "jit: a pending op has no op");
    const Schema& s = p.op->schema;
    KILN_CHECK(p.args.size() == s.args.size(), Runtime, "jit: pending `", s.name, "` has ", p.args.size(),
               " arguments, its schema ", s.args.size());
    for (size_t a = 0; a < p.args.size(); ++a) {
      const Value& v = p.args[a];
      if (v.is_tensor()) tensor(v.tensor());
      if (v.is_tensor_list())
        for (const Tensor& t : v.tensor_list()) tensor(t);
      if (s.args[a].type == ArgType::Scalar && v.is_number()) in.scalars.push_back(v);
    }
    for (const Tensor& o : p.outs) {  // a later use of an output is not an input
      bool fresh;
      if (o.defined()) index.at(o.impl(), fresh);
    }
  }
  return in;
}

std::optional<Mismatch> first_mismatch(const Signature& entry, const Signature& now,
                                       std::span<const lazy::PendingOp> now_ops,
                                       std::string (*site_name)(uint32_t site)) {
  const auto& want = entry.guards;
  const auto& got = now.guards;
  size_t common = std::min(want.size(), got.size());
  size_t first = 0;
  while (first < common && want[first] == got[first]) ++first;
  if (first == want.size() && first == got.size()) return std::nullopt;

  Explainer explain(now_ops, site_name);
  Context c;
  for (size_t i = 0; i < first; ++i) c.step(got[i]);
  Mismatch m;
  if (first == common) {
    size_t want_ops = size_t(std::count_if(want.begin(), want.end(), [](const Guard& g) { return What(g.what) == What::Op; }));
    m = explain.op_count(want_ops, now_ops.size());
  } else {
    c.step(got[first]);
    m = explain.explain(want[first], got[first], c);
  }

  // Only sizes differ when the checks line up and every failing one is an
  // InputDim or an int argument's value (a size passed on as a Python int).
  if (want.size() != got.size()) return m;
  Context scan;
  std::vector<std::pair<size_t, int>> dims;
  std::vector<std::pair<uint32_t, uint32_t>> ints;
  for (size_t i = 0; i < got.size(); ++i) {
    scan.step(got[i]);
    if (want[i] == got[i]) continue;
    if (!same_check(want[i], got[i])) return m;
    const What w = What(got[i].what);
    if (w == What::ConstValue && (scan.alt == kInt || scan.alt == kIntList) && !names_dims(now_ops, scan)) {
      std::pair<uint32_t, uint32_t> key{scan.node, scan.arg};
      if (ints.empty() || ints.back() != key) ints.push_back(key);
      continue;
    }
    if (w != What::InputDim || scan.input < 0) return m;
    dims.emplace_back(size_t(scan.input), int(got[i].dim));
  }
  m.int_args = std::move(ints);
  m.only_sizes = true;
  m.size_dims = std::move(dims);
  return m;
}

}  // namespace kiln::jit

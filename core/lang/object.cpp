#include "core/lang/object.h"

#include <cmath>
#include <cstring>
#include <functional>

#include "core/lang/bytecode.h"

namespace kiln::lang {

// ---- the heap registry --------------------------------------------------------------

namespace {
HeapObj* g_heap_head = nullptr;
size_t g_heap_count = 0;
}  // namespace

HeapObj::HeapObj(Kind k) : kind(k) {
  next = g_heap_head;
  if (g_heap_head) g_heap_head->prev = this;
  g_heap_head = this;
  ++g_heap_count;
}

HeapObj::~HeapObj() {
  if (prev) prev->next = next;
  else g_heap_head = next;
  if (next) next->prev = prev;
  --g_heap_count;
}

namespace heap {
size_t live_count() { return g_heap_count; }

void clear_all() {
  // Clearing one object can free others (and unlink them), so pin each
  // object with a reference while clearing it and walk from a stable list.
  std::vector<Obj> all;
  all.reserve(g_heap_count);
  for (HeapObj* h = g_heap_head; h; h = h->next) all.push_back(Obj(h));
  for (Obj& o : all) o.heap()->clear_refs();
  all.clear();
}
}  // namespace heap

void Obj::destroy(HeapObj* h) { delete h; }

bool Obj::is(const Obj& o) const {
  if (kind_ != o.kind_) return false;
  if (kind_ == Kind::Tensor) return as<TensorObj>()->tensor.impl() == o.as<TensorObj>()->tensor.impl();
  if (!is_heap()) return u_.i == o.u_.i;
  return u_.p == o.u_.p;
}

// ---- hashing and equality for dict keys --------------------------------------------------

namespace {
size_t hash_int(int64_t i) { return std::hash<int64_t>()(i == -1 ? -2 : i); }
size_t hash_string(std::string_view s) { return std::hash<std::string_view>()(s); }
}  // namespace

size_t ObjHash::operator()(const Obj& o) const {
  switch (o.kind()) {
    case Kind::None: return 0x9e3779b9;
    case Kind::Bool:
    case Kind::Int: return hash_int(o.as_int());
    case Kind::Float: {
      double d = o.as_float();
      // Equal numbers hash equally: 2.0 and 2 are one dict key.
      if (std::isfinite(d) && d == std::floor(d) && std::fabs(d) < 9.2e18) return hash_int(int64_t(d));
      return std::hash<double>()(d);
    }
    case Kind::DType: return 0x51ed27 + size_t(o.as_int());
    case Kind::Str: {
      StrObj* s = o.as<StrObj>();
      if (s->hash == 0) s->hash = hash_string(s->value) | 1;
      return s->hash;
    }
    case Kind::Bytes: return hash_string(o.as<BytesObj>()->value) ^ 0x62797465;
    case Kind::Tuple: {
      size_t h = 0x345678;
      for (const Obj& x : o.as<TupleObj>()->items) h = (h ^ (*this)(x)) * 1000003;
      return h;
    }
    case Kind::Tensor: return std::hash<const void*>()(o.as<TensorObj>()->tensor.impl());
    case Kind::Set:
      if (o.as<SetObj>()->frozen) {
        // Order-independent: equal frozensets hash equally whatever their insertion order.
        size_t h = 0x1f2e3d;
        o.as<SetObj>()->map.for_each([&](const Obj& k, const Obj&) { h += ((*this)(k) ^ 0x5bd1e995) * 0x9e3779b97f4a7c15ull; });
        return h;
      }
      [[fallthrough]];
    case Kind::List:
    case Kind::Dict:
    case Kind::Slice:
      throw Error("unhashable type: '" + std::string(kind_name(o.kind())) + "'", ErrorKind::Type);
    case Kind::DictView:
      throw Error("unhashable type: '" + dict_view_type_name(*o.as<DictViewObj>()) + "'", ErrorKind::Type);
    default: return std::hash<const void*>()(o.heap());
  }
}

size_t ObjHash::operator()(std::string_view s) const { return hash_string(s) | 1; }

bool ObjEq::operator()(const Obj& a, std::string_view b) const {
  const StrObj* s = a.as<StrObj>();
  return s && s->value == b;
}

bool ObjEq::operator()(const Obj& a, const Obj& b) const {
  if (a.is_heap() && b.is_heap() && a.heap() == b.heap()) return true;
  if (a.is_number() && b.is_number()) {
    if (a.is_float() || b.is_float()) return a.as_number() == b.as_number();
    return a.as_int() == b.as_int();
  }
  if (a.kind() != b.kind()) return false;
  switch (a.kind()) {
    case Kind::Str: return a.as<StrObj>()->value == b.as<StrObj>()->value;
    case Kind::Bytes: return a.as<BytesObj>()->value == b.as<BytesObj>()->value;
    case Kind::Tuple: {
      const auto& x = a.as<TupleObj>()->items;
      const auto& y = b.as<TupleObj>()->items;
      if (x.size() != y.size()) return false;
      for (size_t i = 0; i < x.size(); ++i)
        if (!(*this)(x[i], y[i])) return false;
      return true;
    }
    case Kind::Set: {  // frozenset keys: equal contents
      const OrderedMap& x = a.as<SetObj>()->map;
      const OrderedMap& y = b.as<SetObj>()->map;
      if (x.size() != y.size()) return false;
      bool same = true;
      x.for_each([&](const Obj& k, const Obj&) { same = same && y.find(k) != nullptr; });
      return same;
    }
    default: return a.is(b);
  }
}

// ---- OrderedMap --------------------------------------------------------------------------

Obj* OrderedMap::find(const Obj& key) {
  auto it = index_.find(key);
  return it == index_.end() ? nullptr : &entries_[it->second].second;
}

const Obj* OrderedMap::find(const Obj& key) const {
  auto it = index_.find(key);
  return it == index_.end() ? nullptr : &entries_[it->second].second;
}

Obj* OrderedMap::find(std::string_view key) {
  auto it = index_.find(key);
  return it == index_.end() ? nullptr : &entries_[it->second].second;
}

void OrderedMap::set(const Obj& key, Obj value) {
  auto it = index_.find(key);
  if (it != index_.end()) {
    entries_[it->second].second = std::move(value);
    return;
  }
  index_.emplace(key, entries_.size());
  entries_.emplace_back(key, std::move(value));
  ++layout_version_;
}

void OrderedMap::set(std::string_view key, Obj value) {
  if (Obj* v = find(key)) {
    *v = std::move(value);
    return;
  }
  set(make_str(std::string(key)), std::move(value));
}

bool OrderedMap::erase(const Obj& key) {
  auto it = index_.find(key);
  if (it == index_.end()) return false;
  entries_[it->second] = {Obj::null(), Obj()};
  index_.erase(it);
  ++layout_version_;
  if (entries_.size() > 16 && index_.size() * 2 < entries_.size()) compact();
  return true;
}

void OrderedMap::compact() {
  std::vector<std::pair<Obj, Obj>> live;
  live.reserve(index_.size());
  for (auto& e : entries_)
    if (!e.first.is_null()) live.push_back(std::move(e));
  entries_ = std::move(live);
  for (size_t i = 0; i < entries_.size(); ++i) index_[entries_[i].first] = i;
}

// ---- misc ----------------------------------------------------------------------------------

int64_t RangeObj::length() const {
  if (step > 0 && start < stop) return (stop - start + step - 1) / step;
  if (step < 0 && start > stop) return (start - stop - step - 1) / (-step);
  return 0;
}

Code& FunctionObj::get_code() const { return *code.as<Code>(); }

namespace {

// attrs is logically const here; find(string_view) does not mutate.
const Obj* own_attr(const ClassObj& c, std::string_view key) { return const_cast<OrderedMap&>(c.attrs).find(key); }

// C3 linearization: repeatedly take the first head of `seqs` that is in no
// sequence's tail. `seqs` are each base's MRO (itself first) and the bases.
std::vector<Obj> c3_merge(std::vector<std::vector<Obj>> seqs) {
  auto in_a_tail = [&](const Obj& c) {
    for (const auto& s : seqs)
      for (size_t i = 1; i < s.size(); ++i)
        if (s[i].is(c)) return true;
    return false;
  };
  std::vector<Obj> out;
  for (;;) {
    std::erase_if(seqs, [](const std::vector<Obj>& s) { return s.empty(); });
    if (seqs.empty()) return out;
    Obj next = Obj::null();
    for (const auto& s : seqs)
      if (!in_a_tail(s.front())) {
        next = s.front();
        break;
      }
    if (next.is_null()) {
      std::string names;
      for (const auto& s : seqs) {
        const std::string& n = s.front().as<ClassObj>()->name;
        if (names.find(n) == std::string::npos) names += (names.empty() ? "" : ", ") + n;
      }
      throw Error("Cannot create a consistent method resolution\norder (MRO) for bases " + names, ErrorKind::Type);
    }
    out.push_back(next);
    for (auto& s : seqs)
      if (s.front().is(next)) s.erase(s.begin());
  }
}

}  // namespace

void ClassObj::set_bases(std::vector<Obj> direct) {
  std::vector<std::vector<Obj>> seqs;
  for (size_t i = 0; i < direct.size(); ++i) {
    const ClassObj* b = direct[i].as<ClassObj>();
    for (size_t j = 0; j < i; ++j)
      if (direct[j].is(direct[i])) throw Error("duplicate base class " + b->name, ErrorKind::Type);
    std::vector<Obj> order{direct[i]};
    order.insert(order.end(), b->mro.begin(), b->mro.end());
    seqs.push_back(std::move(order));
  }
  seqs.push_back(direct);
  mro = c3_merge(std::move(seqs));
  base = direct.empty() ? Obj() : direct[0];
  bases = std::move(direct);
  ++g_class_epoch;
}

Obj ClassObj::lookup(std::string_view key) const {
  if (const Obj* v = own_attr(*this, key)) return *v;
  for (const Obj& c : mro)
    if (const Obj* v = own_attr(*c.as<ClassObj>(), key)) return *v;
  return Obj::null();
}

Obj ClassObj::lookup(const Obj& key) const {
  if (const Obj* v = attrs.find(key)) return *v;
  for (const Obj& c : mro)
    if (const Obj* v = c.as<ClassObj>()->attrs.find(key)) return *v;
  return Obj::null();
}

Obj ClassObj::lookup_after(const ClassObj* start, std::string_view key) const {
  size_t i = 0;
  if (start != this) {
    while (i < mro.size() && mro[i].as<ClassObj>() != start) ++i;
    ++i;  // past start (or past the end when start is not in the MRO)
  }
  for (; i < mro.size(); ++i)
    if (const Obj* v = own_attr(*mro[i].as<ClassObj>(), key)) return *v;
  return Obj::null();
}

bool ClassObj::is_subclass_of(const ClassObj* other) const {
  if (other == this) return true;
  for (const Obj& c : mro)
    if (c.as<ClassObj>() == other) return true;
  return false;
}

Obj make_str(std::string s) { return make<StrObj>(std::move(s)); }

const Obj& intern(const std::string& s) {
  // Leaked on purpose: interned names live as long as the process, and are
  // not on the heap list that shutdown clears (they hold no references).
  static auto* table = new std::unordered_map<std::string, Obj>();
  auto it = table->find(s);
  if (it != table->end()) return it->second;
  Obj o = make_str(s);
  ObjHash()(o);  // cache the hash now
  return table->emplace(s, std::move(o)).first->second;
}
Obj make_bytes(std::string s) { return make<BytesObj>(std::move(s)); }
Obj make_tuple(std::vector<Obj> items) { return make<TupleObj>(std::move(items)); }
Obj make_list(std::vector<Obj> items) { return make<ListObj>(std::move(items)); }
Obj make_tensor(Tensor t) { return make<TensorObj>(std::move(t)); }
Obj make_builtin(std::string name, NativeFn fn, Obj data) { return make<BuiltinObj>(std::move(name), fn, std::move(data)); }

const std::string& str_of(const Obj& o, const char* what) {
  if (StrObj* s = o.as<StrObj>()) return s->value;
  throw Error(std::string(what) + " must be str, not " + std::string(kind_name(o.kind())), ErrorKind::Type);
}

std::string_view kind_name(Kind k) {
  switch (k) {
    case Kind::None: return "NoneType";
    case Kind::Bool: return "bool";
    case Kind::Int: return "int";
    case Kind::Float: return "float";
    case Kind::DType: return "torch.dtype";
    case Kind::Str: return "str";
    case Kind::Bytes: return "bytes";
    case Kind::Tuple: return "tuple";
    case Kind::List: return "list";
    case Kind::Dict: return "dict";
    case Kind::Set: return "set";
    case Kind::Slice: return "slice";
    case Kind::Range: return "range";
    case Kind::Function: return "function";
    case Kind::Builtin: return "builtin_function_or_method";
    case Kind::BoundMethod: return "method";
    case Kind::Class: return "type";
    case Kind::Instance: return "object";
    case Kind::Module: return "module";
    case Kind::Tensor: return "Tensor";
    case Kind::Cell: return "cell";
    case Kind::Code: return "code";
    case Kind::Iterator: return "iterator";
    case Kind::Property: return "property";
    case Kind::StaticMethod: return "staticmethod";
    case Kind::ClassMethod: return "classmethod";
    case Kind::Device: return "torch.device";
    case Kind::DictView: return "dict_view";
    case Kind::Null: return "NULL";
  }
  return "object";
}

// ---- CallArgs ------------------------------------------------------------------------------

const Obj* CallArgs::find_kw(std::string_view name) const {
  for (const Kwarg& k : kw)
    if (*k.name == name) return &k.value;
  return nullptr;
}

void CallArgs::check(const char* fn, size_t min, size_t max, std::string_view allowed) const {
  if (pos.size() < min || pos.size() > max) {
    std::string want = min == max ? std::to_string(min) : detail::cat("from ", min, " to ", max);
    if (max == size_t(-1)) want = detail::cat("at least ", min);
    throw Error(detail::cat(fn, "() takes ", want, " positional argument", (max == 1 && min == 1) ? "" : "s",
                            " but ", pos.size(), pos.size() == 1 ? " was" : " were", " given"),
                ErrorKind::Type);
  }
  for (const Kwarg& k : kw) {
    bool ok = false;
    std::string_view rest = allowed;
    while (!rest.empty() && !ok) {
      size_t sp = rest.find(' ');
      ok = rest.substr(0, sp) == *k.name;
      rest = sp == std::string_view::npos ? std::string_view() : rest.substr(sp + 1);
    }
    if (!ok) throw Error(detail::cat(fn, "() got an unexpected keyword argument '", *k.name, "'"), ErrorKind::Type);
  }
}

Obj CallArgs::arg(size_t i, std::string_view name, Obj def) const {
  if (i < pos.size()) return pos[i];
  if (const Obj* v = find_kw(name)) return *v;
  return def;
}

std::string dict_view_type_name(const DictViewObj& v) {
  const auto* d = v.dict.as<DictObj>();
  std::string name = d && d->ordered ? "odict_" : "dict_";
  return name + (v.what == DictIterKind::Keys ? "keys" : v.what == DictIterKind::Values ? "values" : "items");
}

}  // namespace kiln::lang

// Iterators of the built-in kinds. Each keeps the object it walks alive and
// an index into it; lists are re-checked on every step because a loop body
// may append to the list it iterates.
#include "core/lang/iterators.h"

#include "core/lang/interp.h"
#include "core/lang/objops.h"
#include "core/lang/set_order.h"

namespace kiln::lang {

size_t utf8_count(std::string_view s) {
  size_t n = 0;
  for (unsigned char c : s) n += (c & 0xC0) != 0x80;
  return n;
}

std::vector<size_t> utf8_offsets(std::string_view s) {
  std::vector<size_t> offs;
  for (size_t i = 0; i < s.size(); ++i)
    if ((static_cast<unsigned char>(s[i]) & 0xC0) != 0x80) offs.push_back(i);
  offs.push_back(s.size());
  return offs;
}

std::vector<uint32_t> utf8_code_points(std::string_view s) {
  std::vector<uint32_t> cps;
  const std::vector<size_t> at = utf8_offsets(s);
  for (size_t i = 0; i + 1 < at.size(); ++i) {
    const auto* p = reinterpret_cast<const unsigned char*>(s.data() + at[i]);
    const size_t extra = at[i + 1] - at[i] - 1;
    uint32_t c = extra ? p[0] & (0x3F >> extra) : p[0];
    for (size_t k = 1; k <= extra; ++k) c = (c << 6) | (p[k] & 0x3F);
    cps.push_back(c);
  }
  return cps;
}

namespace {

struct RangeIter : IteratorObj {
  RangeIter(int64_t a, int64_t s, int64_t n) : cur(a), step(s), left(n) {}
  bool next(Interp&, Obj& out) override {
    if (left <= 0) return false;
    out = Obj::from_int(cur);
    cur += step, --left;
    return true;
  }
  const char* type_name() const override { return "range_iterator"; }
  int64_t cur, step, left;
};

struct SeqIter : IteratorObj {
  explicit SeqIter(Obj s) : seq(std::move(s)) {
    if (auto* so = seq.as<StrObj>(); so && utf8_count(so->value) != so->value.size())
      offsets = utf8_offsets(so->value);
  }
  void clear_refs() override { seq = Obj(); }
  bool next(Interp&, Obj& out) override {
    if (auto* l = seq.as<ListObj>()) {
      if (index >= l->items.size()) return false;
      out = l->items[index++];
      return true;
    }
    if (auto* t = seq.as<TupleObj>()) {
      if (index >= t->items.size()) return false;
      out = t->items[index++];
      return true;
    }
    if (auto* s = seq.as<StrObj>()) {
      if (offsets.empty()) {
        if (index >= s->value.size()) return false;
        out = make_str(std::string(1, s->value[index++]));
        return true;
      }
      if (index + 1 >= offsets.size()) return false;
      out = make_str(s->value.substr(offsets[index], offsets[index + 1] - offsets[index]));
      ++index;
      return true;
    }
    return false;
  }
  const char* type_name() const override {
    return seq.kind() == Kind::List ? "list_iterator" : seq.kind() == Kind::Tuple ? "tuple_iterator" : "str_iterator";
  }
  Obj seq;
  size_t index = 0;
  std::vector<size_t> offsets;  // code point starts of a non-ASCII str
};

// Reversed iteration over a snapshot of the items (range reversal is computed).
struct ReversedIter : IteratorObj {
  explicit ReversedIter(std::vector<Obj> v) : items(std::move(v)), index(items.size()) {}
  void clear_refs() override { items.clear(); }
  bool next(Interp&, Obj& out) override {
    if (index == 0) return false;
    out = items[--index];
    return true;
  }
  const char* type_name() const override { return "reversed"; }
  std::vector<Obj> items;
  size_t index;
};

struct MapIter : IteratorObj {  // dict keys, values and items
  MapIter(Obj m, OrderedMap& map, DictIterKind k, const char* name)
      : owner(std::move(m)), map(&map), kind(k), name(name), size(map.size()) {}
  void clear_refs() override { owner = Obj(); }
  bool next(Interp&, Obj& out) override {
    if (owner.is_none()) return false;
    KILN_CHECK(map->size() == size, Runtime, owner.kind() == Kind::Set ? "Set" : "dictionary",
               " changed size during iteration");
    auto& items = map->items();
    while (index < items.size() && items[index].first.is_null()) ++index;
    if (index >= items.size()) return false;
    auto& [k, v] = items[index++];
    if (kind == DictIterKind::Keys) out = k;
    else if (kind == DictIterKind::Values) out = v;
    else out = make_tuple({k, v});
    return true;
  }
  const char* type_name() const override { return name; }
  Obj owner;
  OrderedMap* map;
  DictIterKind kind;
  const char* name;
  size_t size, index = 0;
};

// A set's items in CPython's order, taken when iteration starts.
struct SetIter : IteratorObj {
  explicit SetIter(Obj s) : owner(std::move(s)), items(set_items_in_order(*owner.as<SetObj>())) {}
  void clear_refs() override {
    owner = Obj();
    items.clear();
  }
  bool next(Interp&, Obj& out) override {
    if (owner.is_none()) return false;
    KILN_CHECK(owner.as<SetObj>()->map.size() == items.size(), Runtime, "Set changed size during iteration");
    if (index >= items.size()) return false;
    out = items[index++];
    return true;
  }
  const char* type_name() const override { return "set_iterator"; }
  Obj owner;
  std::vector<Obj> items;
  size_t index = 0;
};

bool is_stop_iteration(Interp& in, const ScriptException& e) {
  return isinstance(in, e.exc, in.exc_class(ErrorKind::StopIteration));
}

// obj.__next__(), false when it raises StopIteration.
bool user_next(Interp& in, const Obj& obj, Obj& out) {
  Obj f = special_method(in, obj, "__next__");
  if (f.is_null()) throw Error(detail::cat("'", type_name(obj), "' object is not an iterator"), ErrorKind::Type);
  try {
    out = in.call(f, {});
  } catch (const ScriptException& e) {
    if (is_stop_iteration(in, e)) return false;
    throw;
  } catch (const Error& e) {
    if (e.kind() == ErrorKind::StopIteration) return false;
    throw;
  }
  return true;
}

struct UserIter : IteratorObj {
  explicit UserIter(Obj o) : obj(std::move(o)) {}
  void clear_refs() override { obj = Obj(); }
  bool next(Interp& in, Obj& out) override { return user_next(in, obj, out); }
  Obj obj;
};

struct GetItemIter : IteratorObj {
  explicit GetItemIter(Obj o) : obj(std::move(o)) {}
  void clear_refs() override { obj = Obj(); }
  bool next(Interp& in, Obj& out) override {
    try {
      out = getitem(in, obj, Obj::from_int(index++));
    } catch (const ScriptException& e) {
      if (isinstance(in, e.exc, in.exc_class(ErrorKind::Index)) || is_stop_iteration(in, e)) return false;
      throw;
    } catch (const Error& e) {
      if (e.kind() == ErrorKind::Index || e.kind() == ErrorKind::StopIteration) return false;
      throw;
    }
    return true;
  }
  Obj obj;
  int64_t index = 0;
};

struct ZipIter : IteratorObj {
  explicit ZipIter(std::vector<Obj> v) : iters(std::move(v)) {}
  void clear_refs() override { iters.clear(); }
  bool next(Interp& in, Obj& out) override {
    if (iters.empty()) return false;
    std::vector<Obj> items(iters.size());
    for (size_t i = 0; i < iters.size(); ++i)
      if (!iter_next(in, iters[i], items[i])) return false;
    out = make_tuple(std::move(items));
    return true;
  }
  const char* type_name() const override { return "zip"; }
  std::vector<Obj> iters;
};

struct EnumerateIter : IteratorObj {
  EnumerateIter(Obj i, int64_t s) : it(std::move(i)), count(s) {}
  void clear_refs() override { it = Obj(); }
  bool next(Interp& in, Obj& out) override {
    Obj v;
    if (!iter_next(in, it, v)) return false;
    out = make_tuple({Obj::from_int(count++), v});
    return true;
  }
  const char* type_name() const override { return "enumerate"; }
  Obj it;
  int64_t count;
};

struct MapFnIter : IteratorObj {
  MapFnIter(Obj f, std::vector<Obj> v) : fn(std::move(f)), iters(std::move(v)) {}
  void clear_refs() override { fn = Obj(); iters.clear(); }
  bool next(Interp& in, Obj& out) override {
    std::vector<Obj> args(iters.size());
    for (size_t i = 0; i < iters.size(); ++i)
      if (!iter_next(in, iters[i], args[i])) return false;
    out = in.call(fn, args);
    return true;
  }
  const char* type_name() const override { return "map"; }
  Obj fn;
  std::vector<Obj> iters;
};

struct FilterIter : IteratorObj {
  FilterIter(Obj f, Obj i) : fn(std::move(f)), it(std::move(i)) {}
  void clear_refs() override { fn = Obj(); it = Obj(); }
  bool next(Interp& in, Obj& out) override {
    Obj v;
    while (iter_next(in, it, v)) {
      bool keep = fn.is_none() ? truthy(in, v) : truthy(in, in.call(fn, {&v, 1}));
      if (keep) {
        out = v;
        return true;
      }
    }
    return false;
  }
  const char* type_name() const override { return "filter"; }
  Obj fn, it;
};

}  // namespace

Obj make_range_iter(int64_t start, int64_t step, int64_t count) { return make<RangeIter>(start, step, count); }
Obj make_seq_iter(Obj seq) { return make<SeqIter>(std::move(seq)); }

Obj make_reversed_iter(Interp& in, Obj seq) {
  if (auto* r = seq.as<RangeObj>()) {
    int64_t n = r->length();
    return make<RangeIter>(r->start + (n - 1) * r->step, -r->step, n);
  }
  std::vector<Obj> items;
  switch (seq.kind()) {
    case Kind::List: case Kind::Tuple: case Kind::Str: case Kind::Bytes: case Kind::Dict:
      extend_from_iterable(in, items, seq);
      return make<ReversedIter>(std::move(items));
    default: break;
  }
  if (seq.kind() == Kind::Instance) {
    Obj f = special_method(in, seq, "__reversed__");
    if (!f.is_null()) return iter(in, in.call(f, {}));
    if (!special_method(in, seq, "__len__").is_null() && !special_method(in, seq, "__getitem__").is_null()) {
      int64_t n = len(in, seq);
      for (int64_t i = 0; i < n; ++i) items.push_back(getitem(in, seq, Obj::from_int(i)));
      return make<ReversedIter>(std::move(items));
    }
  }
  if (seq.kind() == Kind::Tensor) {
    extend_from_iterable(in, items, seq);
    return make<ReversedIter>(std::move(items));
  }
  throw Error(detail::cat("'", type_name(seq), "' object is not reversible"), ErrorKind::Type);
}

Obj make_dict_iter(Obj dict, DictIterKind what) {
  static const char* names[] = {"dict_keyiterator", "dict_valueiterator", "dict_itemiterator"};
  OrderedMap& m = dict.as<DictObj>()->map;
  return make<MapIter>(std::move(dict), m, what, names[int(what)]);
}

Obj make_set_iter(Obj set) { return make<SetIter>(std::move(set)); }

Obj make_user_iter(Obj obj) { return make<UserIter>(std::move(obj)); }
Obj make_getitem_iter(Obj obj) { return make<GetItemIter>(std::move(obj)); }
Obj make_zip_iter(std::vector<Obj> iters) { return make<ZipIter>(std::move(iters)); }
Obj make_enumerate_iter(Obj it, int64_t start) { return make<EnumerateIter>(std::move(it), start); }
Obj make_map_iter(Obj fn, std::vector<Obj> iters) { return make<MapFnIter>(std::move(fn), std::move(iters)); }
Obj make_filter_iter(Obj fn, Obj it) { return make<FilterIter>(std::move(fn), std::move(it)); }

bool iter_next(Interp& in, const Obj& it, Obj& out) {
  // Builtins that drain iterators (sum, list, sorted, ...) loop here rather
  // than in the VM; each item counts as a step so list(range(10**12)) stops too.
  if (in.step_limit && ++in.steps > in.step_limit) throw Error("kiln step limit exceeded", ErrorKind::Runtime);
  if (auto* i = it.as<IteratorObj>()) return i->next(in, out);
  // iter() only returns IteratorObjs; anything else is a user iterator object.
  return user_next(in, it, out);
}

}  // namespace kiln::lang

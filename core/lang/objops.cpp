// Python semantics of operations on values: arithmetic with CPython's
// floor-division and modulo signs, rich comparison, truth, repr/str, items,
// containment, iteration and types. Tensors are handed to torch_bridge.h and
// instances to their special methods; everything else is computed here.
#include "core/lazy.h"
#include "core/lang/objops.h"

#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <type_traits>

#include "core/format.h"
#include "core/lang/builtins.h"
#include "core/lang/function_attrs.h"
#include "core/lang/interp.h"
#include "core/lang/iterators.h"
#include "core/lang/set_order.h"
#include "core/lang/str_translate.h"
#include "core/lang/strformat.h"
#include "core/lang/torch_bridge.h"

namespace kiln::lang {

std::string type_name(const Obj& o) {
  switch (o.kind()) {
    case Kind::Instance: return o.as<InstanceObj>()->get_class().name;
    case Kind::Tuple:
      if (auto* c = o.as<TupleObj>()->cls.as<ClassObj>()) return c->name;
      return "tuple";
    case Kind::Class: return "type";
    case Kind::Iterator: return o.as<IteratorObj>()->type_name();
    case Kind::Set: return o.as<SetObj>()->frozen ? "frozenset" : "set";
    default: return std::string(kind_name(o.kind()));
  }
}

int64_t to_index(Interp& in, const Obj& o, const char* what) {
  if (o.is_intlike()) return o.as_int();
  if (auto* t = o.as<TensorObj>()) {
    // Integer tensors with one element act as indices (PyTorch's __index__).
    if (t->tensor.numel() == 1 && !t->tensor.is_floating_point()) {
      lazy::ReasonScope why(lazy::SyncReason::Item);
      return t->tensor.item_int();
    }
    throw Error("only integer tensors of a single element can be converted to an index", ErrorKind::Type);
  }
  if (o.kind() == Kind::Instance) {
    Obj f = special_method(in, o, "__index__");
    if (!f.is_null()) {
      Obj r = in.call(f, {});
      if (r.is_intlike()) return r.as_int();
    }
  }
  throw Error(detail::cat("'", type_name(o), "' object cannot be interpreted as ", what), ErrorKind::Type);
}

// ---- numbers ----------------------------------------------------------------------------
namespace {

[[noreturn]] void int_overflow() { throw Error("integer overflow (kiln ints are 64-bit)", ErrorKind::Overflow); }

int64_t checked_add(int64_t a, int64_t b) {
  int64_t r;
  if (__builtin_add_overflow(a, b, &r)) int_overflow();
  return r;
}
int64_t checked_sub(int64_t a, int64_t b) {
  int64_t r;
  if (__builtin_sub_overflow(a, b, &r)) int_overflow();
  return r;
}
int64_t checked_mul(int64_t a, int64_t b) {
  int64_t r;
  if (__builtin_mul_overflow(a, b, &r)) int_overflow();
  return r;
}

int64_t int_floordiv(int64_t a, int64_t b) {
  KILN_CHECK(b != 0, ZeroDivision, "integer division or modulo by zero");
  if (a == INT64_MIN && b == -1) int_overflow();
  int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
  return q;
}

int64_t int_mod(int64_t a, int64_t b) {
  KILN_CHECK(b != 0, ZeroDivision, "integer modulo by zero");
  if (b == -1) return 0;
  int64_t r = a % b;
  if (r != 0 && ((r < 0) != (b < 0))) r += b;
  return r;
}

Obj int_pow(int64_t a, int64_t b) {
  if (b < 0) {
    KILN_CHECK(a != 0, ZeroDivision, "0.0 cannot be raised to a negative power");
    return Obj::from_float(std::pow(double(a), double(b)));
  }
  int64_t result = 1, base = a;
  while (b) {
    if (b & 1) result = checked_mul(result, base);
    b >>= 1;
    if (b) base = checked_mul(base, base);
  }
  return Obj::from_int(result);
}

int64_t int_lshift(int64_t a, int64_t b) {
  KILN_CHECK(b >= 0, Value, "negative shift count");
  if (a == 0) return 0;
  if (b >= 64) int_overflow();  // 63 still fits -1 << 63 (INT64_MIN); the check below refuses the rest
  int64_t r = int64_t(uint64_t(a) << b);
  if ((r >> b) != a) int_overflow();
  return r;
}

int64_t int_rshift(int64_t a, int64_t b) {
  KILN_CHECK(b >= 0, Value, "negative shift count");
  if (b >= 63) return a < 0 ? -1 : 0;
  return a >> b;
}

// CPython's float_divmod: the remainder takes the divisor's sign.
void float_divmod(double a, double b, double& div, double& mod) {
  mod = std::fmod(a, b);
  div = (a - mod) / b;
  if (mod != 0) {
    if ((b < 0) != (mod < 0)) mod += b, div -= 1.0;
  } else {
    mod = std::copysign(0.0, b);
  }
  if (div != 0) {
    double f = std::floor(div);
    if (div - f > 0.5) f += 1.0;
    div = f;
  } else {
    div = std::copysign(0.0, a / b);
  }
}

// A negative finite base to a finite non-integer power: a complex result.
bool complex_power(double a, double b) {
  return a < 0 && std::isfinite(a) && std::isfinite(b) && std::floor(b) != b;
}

Obj float_pow(double a, double b) {
  KILN_CHECK(!(a == 0 && b < 0), ZeroDivision, "0.0 cannot be raised to a negative power");
  KILN_CHECK(!(a < 0 && std::isfinite(a) && std::floor(b) != b && std::isfinite(b)), Value,
             "negative number cannot be raised to a fractional power");
  double r = std::pow(a, b);
  KILN_CHECK(!(std::isinf(r) && std::isfinite(a) && std::isfinite(b)), Overflow,
             "(34, 'Numerical result out of range')");
  return Obj::from_float(r);
}

// Null when the op does not apply to two ints.
Obj int_binary(BinOpKind op, const Obj& x, const Obj& y) {
  int64_t a = x.as_int(), b = y.as_int();
  bool both_bool = x.is_bool() && y.is_bool();
  switch (op) {
    case BinOpKind::Add: return Obj::from_int(checked_add(a, b));
    case BinOpKind::Sub: return Obj::from_int(checked_sub(a, b));
    case BinOpKind::Mult: return Obj::from_int(checked_mul(a, b));
    case BinOpKind::Div:
      KILN_CHECK(b != 0, ZeroDivision, "division by zero");
      return Obj::from_float(double(a) / double(b));
    case BinOpKind::FloorDiv: return Obj::from_int(int_floordiv(a, b));
    case BinOpKind::Mod: return Obj::from_int(int_mod(a, b));
    case BinOpKind::Pow: return int_pow(a, b);
    case BinOpKind::LShift: return Obj::from_int(int_lshift(a, b));
    case BinOpKind::RShift: return Obj::from_int(int_rshift(a, b));
    case BinOpKind::BitAnd: return both_bool ? Obj::from_bool(a & b) : Obj::from_int(a & b);
    case BinOpKind::BitOr: return both_bool ? Obj::from_bool(a | b) : Obj::from_int(a | b);
    case BinOpKind::BitXor: return both_bool ? Obj::from_bool(a ^ b) : Obj::from_int(a ^ b);
    case BinOpKind::MatMult: return Obj::null();
  }
  return Obj::null();
}

Obj float_binary(BinOpKind op, double a, double b) {
  double div, mod;
  switch (op) {
    case BinOpKind::Add: return Obj::from_float(a + b);
    case BinOpKind::Sub: return Obj::from_float(a - b);
    case BinOpKind::Mult: return Obj::from_float(a * b);
    case BinOpKind::Div:
      KILN_CHECK(b != 0, ZeroDivision, "float division by zero");
      return Obj::from_float(a / b);
    case BinOpKind::FloorDiv:
      KILN_CHECK(b != 0, ZeroDivision, "float floor division by zero");
      float_divmod(a, b, div, mod);
      return Obj::from_float(div);
    case BinOpKind::Mod:
      KILN_CHECK(b != 0, ZeroDivision, "float modulo");
      float_divmod(a, b, div, mod);
      return Obj::from_float(mod);
    case BinOpKind::Pow: return float_pow(a, b);
    default: return Obj::null();
  }
}

int64_t repeat_count(const Obj& n) { return n.as_int() < 0 ? 0 : n.as_int(); }

// CPython: a str too long for its size type is an OverflowError, any other
// repetition that cannot be allocated a MemoryError.
template <class V>
V repeat(Interp& in, const V& v, int64_t n) {
  V out;
  if (v.empty()) return out;  // '' * 2**62 is '' at once, not after 2**62 empty appends
  if (n > 0) {
    uint64_t total = 0;
    bool overflow = __builtin_mul_overflow(uint64_t(v.size()), uint64_t(n), &total) || total > uint64_t(INT64_MAX);
    if constexpr (std::is_same_v<V, std::string>) KILN_CHECK(!overflow, Overflow, "repeated string is too long");
    check_alloc(in, overflow ? UINT64_MAX : total, sizeof(typename V::value_type));
    out.reserve(size_t(total));
  }
  for (int64_t i = 0; i < n; ++i) out.insert(out.end(), v.begin(), v.end());
  return out;
}

// A view's elements now: keys, values, or (key, value) tuples.
std::vector<Obj> view_elements(const DictViewObj& v) {
  std::vector<Obj> out;
  const OrderedMap& m = v.dict.as<DictObj>()->map;
  out.reserve(m.size());
  m.for_each([&](const Obj& k, const Obj& val) {
    out.push_back(v.what == DictIterKind::Keys ? k : v.what == DictIterKind::Values ? val : make_tuple({k, val}));
  });
  return out;
}

// keys() and items() views are set-like (CPython's & | - ^ and == with sets).
const DictViewObj* set_like_view(const Obj& o) {
  auto* v = o.as<DictViewObj>();
  return v && v->what != DictIterKind::Values ? v : nullptr;
}
Obj set_of(Interp& in, const Obj& o) {
  if (o.kind() == Kind::Set) return o;
  std::vector<Obj> items;
  if (auto* v = o.as<DictViewObj>()) {
    items = view_elements(*v);
  } else {
    extend_from_iterable(in, items, o);
  }
  Obj s = make<SetObj>();
  for (const Obj& x : items) s.as<SetObj>()->map.set(x, Obj());
  return s;
}

}  // namespace

static void merge_into(SetObj& out, const SetObj& from) {
  if (out.map.size() == 0 && out.merges.empty() && merge_copies_table(from)) {
    from.map.for_each([&](const Obj& k, const Obj&) { out.map.set(k, Obj()); });
    out.merges = from.merges;  // the same insertions: the same table
    return;
  }
  note_set_merge(out, from.map.size());
  for (const Obj& k : set_items_in_order(from)) out.map.set(k, Obj());
}

void set_add_all(Interp& in, SetObj& s, const Obj& iterable) {
  if (auto* from = iterable.as<SetObj>()) return merge_into(s, *from);
  if (auto* d = iterable.as<DictObj>()) {
    note_set_merge(s, d->map.size());
    d->map.for_each([&](const Obj& k, const Obj&) { s.map.set(k, Obj()); });
    return;
  }
  std::vector<Obj> items;
  extend_from_iterable(in, items, iterable);
  for (const Obj& x : items) s.map.set(x, Obj());
}


// a - b as a copy of a with b's items taken out (CPython's way when a is
// far larger than b, or b is not a set).
Obj set_copy_and_difference(const SetObj& a, const SetObj& b) {
  auto out = new SetObj();
  Obj res(out);
  out->frozen = a.frozen;
  merge_into(*out, a);
  b.map.for_each([&](const Obj& k, const Obj&) { out->map.erase(k); });
  return res;
}

Obj set_binary(BinOpKind op, const SetObj& a, const SetObj& b) {
  auto out = new SetObj();
  Obj res(out);
  out->frozen = a.frozen;  // the left operand's type, as in CPython
  switch (op) {
    case BinOpKind::BitOr:  // a copy of a, then b merged in
      merge_into(*out, a);
      merge_into(*out, b);
      return res;
    case BinOpKind::BitAnd: {  // the smaller set's items found in the other
      const SetObj& walk = b.map.size() > a.map.size() ? a : b;
      const SetObj& other = &walk == &a ? b : a;
      for (const Obj& k : set_items_in_order(walk))
        if (other.map.find(k)) out->map.set(k, Obj());
      return res;
    }
    case BinOpKind::Sub:
      if ((a.map.size() >> 2) > b.map.size()) return set_copy_and_difference(a, b);
      for (const Obj& k : set_items_in_order(a))
        if (!b.map.find(k)) out->map.set(k, Obj());
      return res;
    case BinOpKind::BitXor:  // a copy of b, each of a's items toggled
      merge_into(*out, b);
      for (const Obj& k : set_items_in_order(a))
        if (!out->map.erase(k)) out->map.set(k, Obj());
      return res;
    default: return Obj::null();
  }
}

void set_inplace(BinOpKind op, SetObj& a, const SetObj& b) {
  const std::vector<Obj> items = set_items_in_order(b);  // before a changes: b may be a
  switch (op) {
    case BinOpKind::BitOr:
      note_set_merge(a, items.size());
      for (const Obj& k : items) a.map.set(k, Obj());
      return;
    case BinOpKind::Sub:
      for (const Obj& k : items) a.map.erase(k);
      return;
    case BinOpKind::BitXor:
      for (const Obj& k : items)
        if (!a.map.erase(k)) a.map.set(k, Obj());
      return;
    default: {  // &=: the intersection becomes a's table
      Obj r = set_binary(op, a, b);
      a.map = r.as<SetObj>()->map;
      a.merges = r.as<SetObj>()->merges;
    }
  }
}

namespace {

// Sequences, strings, dicts and sets; Null when the kinds do not combine.
Obj container_binary(Interp& in, BinOpKind op, const Obj& a, const Obj& b) {
  auto* sa = a.as<StrObj>();
  if (op == BinOpKind::Add) {
    if (sa) {
      if (auto* sb = b.as<StrObj>()) {
        check_alloc(in, uint64_t(sa->value.size()) + sb->value.size(), 1);
        return make_str(sa->value + sb->value);
      }
      throw Error(detail::cat("can only concatenate str (not \"", type_name(b), "\") to str"), ErrorKind::Type);
    }
    if (auto* ba = a.as<BytesObj>()) {
      auto* bb = b.as<BytesObj>();
      if (!bb) {
        if (b.kind() == Kind::Instance) return Obj::null();
        throw Error(detail::cat("can't concat ", type_name(b), " to bytes"), ErrorKind::Type);
      }
      check_alloc(in, uint64_t(ba->value.size()) + bb->value.size(), 1);
      return make_bytes(ba->value + bb->value);
    }
    if (auto* la = a.as<ListObj>()) {
      auto* lb = b.as<ListObj>();
      if (!lb) throw Error(detail::cat("can only concatenate list (not \"", type_name(b), "\") to list"), ErrorKind::Type);
      check_alloc(in, uint64_t(la->items.size()) + lb->items.size(), sizeof(Obj));
      std::vector<Obj> v = la->items;
      v.insert(v.end(), lb->items.begin(), lb->items.end());
      return make_list(std::move(v));
    }
    if (auto* ta = a.as<TupleObj>()) {
      auto* tb = b.as<TupleObj>();
      if (!tb) throw Error(detail::cat("can only concatenate tuple (not \"", type_name(b), "\") to tuple"), ErrorKind::Type);
      check_alloc(in, uint64_t(ta->items.size()) + tb->items.size(), sizeof(Obj));
      std::vector<Obj> v = ta->items;
      v.insert(v.end(), tb->items.begin(), tb->items.end());
      // torch.Size on either side makes a torch.Size, as torch.Size's __add__ and __radd__ do.
      return make<TupleObj>(std::move(v), ta->is_size || tb->is_size);
    }
  }
  if (op == BinOpKind::Mult) {
    const Obj* seq = &a;
    const Obj* n = &b;
    if (a.is_intlike()) std::swap(seq, n);
    Kind k = seq->kind();
    if (k == Kind::Str || k == Kind::Bytes || k == Kind::List || k == Kind::Tuple) {
      if (!n->is_intlike()) {
        if (n->kind() == Kind::Instance) return Obj::null();
        throw Error(detail::cat("can't multiply sequence by non-int of type '", type_name(*n), "'"), ErrorKind::Type);
      }
      int64_t count = repeat_count(*n);
      if (k == Kind::Str) return make_str(repeat(in, seq->as<StrObj>()->value, count));
      if (k == Kind::Bytes) return make_bytes(repeat(in, seq->as<BytesObj>()->value, count));
      if (k == Kind::List) return make_list(repeat(in, seq->as<ListObj>()->items, count));
      return make<TupleObj>(repeat(in, seq->as<TupleObj>()->items, count), seq->as<TupleObj>()->is_size);
    }
  }
  if (op == BinOpKind::Mod && sa) return make_str(percent_format(in, sa->value, b));
  if (auto* x = a.as<SetObj>())
    if (auto* y = b.as<SetObj>()) return set_binary(op, *x, *y);
  if (set_like_view(a) || (set_like_view(b) && a.kind() == Kind::Set)) {
    Obj x = set_of(in, a), y = set_of(in, b);
    return set_binary(op, *x.as<SetObj>(), *y.as<SetObj>());
  }
  if (op == BinOpKind::BitOr) {
    auto* da = a.as<DictObj>();
    auto* db = b.as<DictObj>();
    if (da && db) {
      auto out = new DictObj();
      Obj res(out);
      da->map.for_each([&](const Obj& k, const Obj& v) { out->map.set(k, v); });
      db->map.for_each([&](const Obj& k, const Obj& v) { out->map.set(k, v); });
      return res;
    }
  }
  return Obj::null();
}

const char* dunder(BinOpKind op, bool reflected) {
  static const char* names[][2] = {
      {"__add__", "__radd__"},         {"__sub__", "__rsub__"},       {"__mul__", "__rmul__"},
      {"__truediv__", "__rtruediv__"}, {"__floordiv__", "__rfloordiv__"}, {"__mod__", "__rmod__"},
      {"__pow__", "__rpow__"},         {"__matmul__", "__rmatmul__"}, {"__lshift__", "__rlshift__"},
      {"__rshift__", "__rrshift__"},   {"__or__", "__ror__"},         {"__xor__", "__rxor__"},
      {"__and__", "__rand__"}};
  return names[int(op)][reflected];
}

const char* inplace_dunder(BinOpKind op) {
  static const char* names[] = {"__iadd__", "__isub__", "__imul__", "__itruediv__", "__ifloordiv__",
                                "__imod__", "__ipow__", "__imatmul__", "__ilshift__", "__irshift__",
                                "__ior__", "__ixor__", "__iand__"};
  return names[int(op)];
}

// Calls o.name(arg); Null when o has no such method or it returned NotImplemented.
Obj try_dunder(Interp& in, const Obj& o, const char* name, const Obj& arg) {
  if (o.kind() != Kind::Instance) return Obj::null();
  Obj f = special_method(in, o, name);
  if (f.is_null()) return f;
  Obj r = in.call(f, {&arg, 1});
  if (r.is(not_implemented(in))) return Obj::null();
  return r;
}

[[noreturn]] void unsupported_binary(BinOpKind op, const Obj& a, const Obj& b) {
  const char* sym = op == BinOpKind::Pow ? "** or pow()" : binop_symbol(op);
  throw Error(detail::cat("unsupported operand type(s) for ", sym, ": '", type_name(a), "' and '", type_name(b), "'"),
              ErrorKind::Type);
}

}  // namespace

Obj binary_op(Interp& in, BinOpKind op, const Obj& a, const Obj& b) {
  if (a.is_intlike() && b.is_intlike()) {
    Obj r = int_binary(op, a, b);
    if (!r.is_null()) return r;
  } else if (a.is_number() && b.is_number()) {
    if (op == BinOpKind::Pow && complex_power(a.as_number(), b.as_number())) {
      // (-8) ** (1/3) is complex in Python: the prelude's complex class computes it.
      Obj base[] = {a};
      return binary_op(in, op, in.call(in.builtin("complex"), base), b);
    }
    Obj r = float_binary(op, a.as_number(), b.as_number());
    if (!r.is_null()) return r;
  }
  if (op == BinOpKind::Mod && a.kind() == Kind::Str) return make_str(percent_format(in, a.as<StrObj>()->value, b));
  if (a.kind() == Kind::Tensor || b.kind() == Kind::Tensor) {
    // A user class on the left answers first, as in Python; on the right it
    // may claim the tensor's reflected operator.
    if (a.kind() == Kind::Instance) {
      Obj r = try_dunder(in, a, dunder(op, false), b);
      if (!r.is_null()) return r;
    }
    if (b.kind() == Kind::Instance) {
      Obj r = try_dunder(in, b, dunder(op, true), a);
      if (!r.is_null()) return r;
    }
    return tensor_binary(in, op, a, b, false);
  }
  if (a.kind() == Kind::Instance || b.kind() == Kind::Instance) {
    Obj r = try_dunder(in, a, dunder(op, false), b);
    if (!r.is_null()) return r;
    if (!(a.kind() == Kind::Instance && b.kind() == Kind::Instance &&
          a.as<InstanceObj>()->cls.is(b.as<InstanceObj>()->cls))) {
      r = try_dunder(in, b, dunder(op, true), a);
      if (!r.is_null()) return r;
    }
    if (a.kind() != Kind::Instance) {
      r = container_binary(in, op, a, b);
      if (!r.is_null()) return r;
    }
    unsupported_binary(op, a, b);
  }
  Obj r = container_binary(in, op, a, b);
  if (!r.is_null()) return r;
  unsupported_binary(op, a, b);
}

Obj inplace_op(Interp& in, BinOpKind op, const Obj& a, const Obj& b) {
  switch (a.kind()) {
    case Kind::Tensor: return tensor_binary(in, op, a, b, true);
    case Kind::List:
      if (op == BinOpKind::Add) {
        extend_from_iterable(in, a.as<ListObj>()->items, b);
        return a;
      }
      if (op == BinOpKind::Mult && b.is_intlike()) {
        auto& items = a.as<ListObj>()->items;
        items = repeat(in, items, repeat_count(b));
        return a;
      }
      break;
    case Kind::Dict:
      if (op == BinOpKind::BitOr) {
        Obj args[] = {b};
        in.call(builtin_method(in, a, "update"), args);
        return a;
      }
      break;
    case Kind::Set:
      if (auto* sb = b.as<SetObj>(); sb && !a.as<SetObj>()->frozen &&  // frozenset |= makes a new one
                                     (op == BinOpKind::BitOr || op == BinOpKind::BitAnd || op == BinOpKind::Sub ||
                                      op == BinOpKind::BitXor)) {
        set_inplace(op, *a.as<SetObj>(), *sb);
        return a;
      }
      break;
    case Kind::Instance: {
      Obj r = try_dunder(in, a, inplace_dunder(op), b);
      if (!r.is_null()) return r;
      break;
    }
    default: break;
  }
  return binary_op(in, op, a, b);
}

Obj unary_op(Interp& in, UnaryOpKind op, const Obj& a) {
  if (op == UnaryOpKind::Not) return Obj::from_bool(!truthy(in, a));
  if (a.is_intlike()) {
    int64_t v = a.as_int();
    switch (op) {
      case UnaryOpKind::UAdd: return Obj::from_int(v);
      case UnaryOpKind::USub:
        if (v == INT64_MIN) int_overflow();
        return Obj::from_int(-v);
      default: return Obj::from_int(~v);
    }
  }
  if (a.is_float() && op != UnaryOpKind::Invert)
    return Obj::from_float(op == UnaryOpKind::USub ? -a.as_float() : a.as_float());
  if (a.kind() == Kind::Tensor) return tensor_unary(in, op, a);
  const char* sym = op == UnaryOpKind::UAdd ? "+" : op == UnaryOpKind::USub ? "-" : "~";
  if (a.kind() == Kind::Instance) {
    const char* name = op == UnaryOpKind::UAdd ? "__pos__" : op == UnaryOpKind::USub ? "__neg__" : "__invert__";
    Obj f = special_method(in, a, name);
    if (!f.is_null()) return in.call(f, {});
  }
  throw Error(detail::cat("bad operand type for unary ", sym, ": '", type_name(a), "'"), ErrorKind::Type);
}

// ---- comparison -------------------------------------------------------------------------
namespace {

bool apply_order(CmpOpKind op, int c) {  // c: <0, 0, >0
  switch (op) {
    case CmpOpKind::Eq: return c == 0;
    case CmpOpKind::NotEq: return c != 0;
    case CmpOpKind::Lt: return c < 0;
    case CmpOpKind::LtE: return c <= 0;
    case CmpOpKind::Gt: return c > 0;
    default: return c >= 0;
  }
}

bool compare_numbers(CmpOpKind op, const Obj& a, const Obj& b) {
  if (a.is_intlike() && b.is_intlike()) {
    int64_t x = a.as_int(), y = b.as_int();
    return apply_order(op, x < y ? -1 : x > y ? 1 : 0);
  }
  double x = a.as_number(), y = b.as_number();
  if (std::isnan(x) || std::isnan(y)) return op == CmpOpKind::NotEq;
  return apply_order(op, x < y ? -1 : x > y ? 1 : 0);
}

const char* cmp_dunder(CmpOpKind op) {
  switch (op) {
    case CmpOpKind::Eq: return "__eq__";
    case CmpOpKind::NotEq: return "__ne__";
    case CmpOpKind::Lt: return "__lt__";
    case CmpOpKind::LtE: return "__le__";
    case CmpOpKind::Gt: return "__gt__";
    default: return "__ge__";
  }
}

CmpOpKind swapped(CmpOpKind op) {
  switch (op) {
    case CmpOpKind::Lt: return CmpOpKind::Gt;
    case CmpOpKind::LtE: return CmpOpKind::GtE;
    case CmpOpKind::Gt: return CmpOpKind::Lt;
    case CmpOpKind::GtE: return CmpOpKind::LtE;
    default: return op;
  }
}

[[noreturn]] void unorderable(CmpOpKind op, const Obj& a, const Obj& b) {
  throw Error(detail::cat("'", cmpop_symbol(op), "' not supported between instances of '", type_name(a), "' and '",
                          type_name(b), "'"),
              ErrorKind::Type);
}

// Comparing or printing nested containers recurses in C++; like CPython, the
// nesting counts against the recursion limit, so a list nested 10**5 deep (or
// two lists containing themselves) raises RecursionError instead of
// overflowing the C stack.
struct NestGuard {
  NestGuard(Interp& in, const char* what) : in_(in) {
    if (++in_.depth > in_.recursion_limit) {
      --in_.depth;
      throw Error(detail::cat("maximum recursion depth exceeded", what), ErrorKind::Recursion);
    }
  }
  ~NestGuard() { --in_.depth; }
  NestGuard(const NestGuard&) = delete;
  NestGuard& operator=(const NestGuard&) = delete;
  Interp& in_;
};

// Items are re-read and held on every step: a user __eq__ may mutate either list.
bool compare_seq(Interp& in, CmpOpKind op, const std::vector<Obj>& x, const std::vector<Obj>& y) {
  NestGuard guard(in, " in comparison");
  for (size_t i = 0; i < x.size() && i < y.size(); ++i) {
    Obj xi = x[i], yi = y[i];
    if (equals(in, xi, yi)) continue;
    if (op == CmpOpKind::Eq) return false;
    if (op == CmpOpKind::NotEq) return true;
    return truthy(in, compare(in, op, xi, yi));
  }
  return apply_order(op, x.size() < y.size() ? -1 : x.size() > y.size() ? 1 : 0);
}

bool map_subset(const OrderedMap& a, const OrderedMap& b) {
  bool ok = true;
  a.for_each([&](const Obj& k, const Obj&) { ok = ok && b.find(k); });
  return ok;
}

bool compare_sets(CmpOpKind op, const OrderedMap& a, const OrderedMap& b) {
  switch (op) {
    case CmpOpKind::Eq: return a.size() == b.size() && map_subset(a, b);
    case CmpOpKind::NotEq: return !(a.size() == b.size() && map_subset(a, b));
    case CmpOpKind::LtE: return map_subset(a, b);
    case CmpOpKind::Lt: return a.size() < b.size() && map_subset(a, b);
    case CmpOpKind::GtE: return map_subset(b, a);
    default: return b.size() < a.size() && map_subset(b, a);
  }
}

bool dicts_equal(Interp& in, const OrderedMap& a, const OrderedMap& b) {
  NestGuard guard(in, " in comparison");
  if (a.size() != b.size()) return false;
  // A snapshot: a user __eq__ may add to or clear either dict.
  std::vector<std::pair<Obj, Obj>> entries = a.items();
  for (const auto& [k, v] : entries) {
    if (k.is_null()) continue;
    const Obj* w = b.find(k);
    if (!w) return false;
    Obj wv = *w;
    if (!equals(in, v, wv)) return false;
  }
  return true;
}

// Built-in kinds; false in `handled` when the kinds have no ordering.
bool builtin_compare(Interp& in, CmpOpKind op, const Obj& a, const Obj& b, bool& handled) {
  handled = true;
  if (a.is_number() && b.is_number()) return compare_numbers(op, a, b);
  bool eq_op = op == CmpOpKind::Eq || op == CmpOpKind::NotEq;
  if ((set_like_view(a) && (set_like_view(b) || b.kind() == Kind::Set)) || (set_like_view(b) && a.kind() == Kind::Set))
    return compare_sets(op, set_of(in, a).as<SetObj>()->map, set_of(in, b).as<SetObj>()->map);
  if (a.kind() == b.kind()) {
    switch (a.kind()) {
      case Kind::None:
        if (eq_op) return op == CmpOpKind::Eq;
        break;
      case Kind::Str: {
        int c = a.as<StrObj>()->value.compare(b.as<StrObj>()->value);
        return apply_order(op, c);
      }
      case Kind::Bytes: return apply_order(op, a.as<BytesObj>()->value.compare(b.as<BytesObj>()->value));
      case Kind::List: return compare_seq(in, op, a.as<ListObj>()->items, b.as<ListObj>()->items);
      case Kind::Tuple: return compare_seq(in, op, a.as<TupleObj>()->items, b.as<TupleObj>()->items);
      case Kind::Set: return compare_sets(op, a.as<SetObj>()->map, b.as<SetObj>()->map);
      case Kind::Dict:
        if (!eq_op) break;
        return dicts_equal(in, a.as<DictObj>()->map, b.as<DictObj>()->map) == (op == CmpOpKind::Eq);
      case Kind::Range: {
        if (!eq_op) break;
        auto *x = a.as<RangeObj>(), *y = b.as<RangeObj>();
        int64_t n = x->length();
        bool same = n == y->length() && (n == 0 || (x->start == y->start && (n == 1 || x->step == y->step)));
        return same == (op == CmpOpKind::Eq);
      }
      case Kind::DType:
        if (!eq_op) break;
        return (a.as_dtype() == b.as_dtype()) == (op == CmpOpKind::Eq);
      case Kind::Device: {
        if (!eq_op) break;
        auto *x = a.as<DeviceObj>(), *y = b.as<DeviceObj>();
        return (x->type == y->type && x->index == y->index) == (op == CmpOpKind::Eq);
      }
      case Kind::Slice: {
        if (!eq_op) break;
        auto *x = a.as<SliceObj>(), *y = b.as<SliceObj>();
        bool same = equals(in, x->start, y->start) && equals(in, x->stop, y->stop) && equals(in, x->step, y->step);
        return same == (op == CmpOpKind::Eq);
      }
      default: break;
    }
  }
  if (eq_op) return a.is(b) == (op == CmpOpKind::Eq);
  handled = false;
  return false;
}

}  // namespace

Obj compare(Interp& in, CmpOpKind op, const Obj& a, const Obj& b) {
  switch (op) {
    case CmpOpKind::Is: return Obj::from_bool(a.is(b));
    case CmpOpKind::IsNot: return Obj::from_bool(!a.is(b));
    case CmpOpKind::In: return Obj::from_bool(contains(in, b, a));
    case CmpOpKind::NotIn: return Obj::from_bool(!contains(in, b, a));
    default: break;
  }
  if (a.is_number() && b.is_number()) return Obj::from_bool(compare_numbers(op, a, b));
  if (a.kind() == Kind::Instance || b.kind() == Kind::Instance) {
    Obj r = try_dunder(in, a, cmp_dunder(op), b);
    if (!r.is_null()) return r;
    r = try_dunder(in, b, cmp_dunder(swapped(op)), a);
    if (!r.is_null()) return r;
    if (op == CmpOpKind::NotEq) {
      // Python derives != from a user __eq__.
      r = try_dunder(in, a, "__eq__", b);
      if (!r.is_null()) return Obj::from_bool(!truthy(in, r));
    }
  }
  if (a.kind() == Kind::Tensor || b.kind() == Kind::Tensor) return tensor_compare(in, op, a, b);
  bool handled;
  bool r = builtin_compare(in, op, a, b, handled);
  if (!handled) unorderable(op, a, b);
  return Obj::from_bool(r);
}

bool equals(Interp& in, const Obj& a, const Obj& b) {
  if (a.is_intlike() && b.is_intlike()) return a.as_int() == b.as_int();
  if (a.is_number() && b.is_number()) return a.as_number() == b.as_number();
  // Containers compare items by identity first, as CPython does.
  if (a.is_heap() && a.is(b)) return true;
  return truthy(in, compare(in, CmpOpKind::Eq, a, b));
}

bool truthy(Interp& in, const Obj& o) {
  switch (o.kind()) {
    case Kind::None: return false;
    case Kind::Bool: case Kind::Int: return o.as_int() != 0;
    case Kind::Float: return o.as_float() != 0;
    case Kind::Str: return !o.as<StrObj>()->value.empty();
    case Kind::Bytes: return !o.as<BytesObj>()->value.empty();
    case Kind::List: return !o.as<ListObj>()->items.empty();
    case Kind::Tuple: return !o.as<TupleObj>()->items.empty();
    case Kind::Dict: return o.as<DictObj>()->map.size() != 0;
    case Kind::DictView: return o.as<DictViewObj>()->dict.as<DictObj>()->map.size() != 0;
    case Kind::Set: return o.as<SetObj>()->map.size() != 0;
    case Kind::Range: return o.as<RangeObj>()->length() != 0;
    case Kind::Tensor: return tensor_truthy(o);
    case Kind::Instance: {
      Obj f = special_method(in, o, "__bool__");
      if (!f.is_null()) {
        Obj r = in.call(f, {});
        KILN_CHECK(r.is_bool(), Type, "__bool__ should return bool, returned ", type_name(r));
        return r.as_bool();
      }
      if (!special_method(in, o, "__len__").is_null()) return len(in, o) != 0;
      return true;
    }
    default: return true;
  }
}

// ---- repr and str -------------------------------------------------------------------------
std::string float_repr(double d) { return format_double(d); }

// Python's repr of a str: single quotes unless the text has ' and no ".
std::string str_repr(const std::string& s) {
  bool has_single = s.find('\'') != std::string::npos, has_double = s.find('"') != std::string::npos;
  char q = has_single && !has_double ? '"' : '\'';
  std::string out(1, q);
  for (uint32_t c : utf8_code_points(s)) {
    switch (c) {
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default:
        if (c == uint32_t(q)) {
          out += '\\', out += char(c);
        } else if (c < 0x80 ? c < 0x20 || c == 0x7f : !printable_code_point(c)) {
          char buf[16];
          std::snprintf(buf, sizeof buf, c < 0x100 ? "\\x%02x" : c < 0x10000 ? "\\u%04x" : "\\U%08x", unsigned(c));
          out += buf;
        } else {
          out += format_int(int64_t(c), "c");
        }
    }
  }
  return out + q;
}

std::string class_module(const ClassObj& c) {
  Obj* m = const_cast<ClassObj&>(c).attrs.find(std::string_view("__module__"));
  if (m && m->kind() == Kind::Str) return m->as<StrObj>()->value;
  // Native classes made without a __module__ belong to torch (Tensor, dtype, device).
  switch (c.native_kind) {
    case Kind::Instance: return "__main__";
    case Kind::Tensor: case Kind::DType: case Kind::Device: return "torch";
    default: return "builtins";
  }
}

namespace {

std::string addr(const Obj& o) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "0x%012" PRIxPTR, reinterpret_cast<uintptr_t>(o.heap()));
  return buf;
}


std::string class_repr(const ClassObj& c) {
  std::string mod = class_module(c);
  return mod == "builtins" ? "<class '" + c.name + "'>" : "<class '" + mod + "." + c.name + "'>";
}

Obj exception_args(const InstanceObj& inst) {
  const Obj* a = const_cast<InstanceObj&>(inst).attrs.find(std::string_view("args"));
  return a ? *a : make_tuple({});
}

std::string exception_repr(Interp& in, const InstanceObj& inst) {
  NestGuard nest(in, " while getting the repr of an object");  // e.args = (e,)
  Obj args = exception_args(inst);
  auto* t = args.as<TupleObj>();
  if (t && t->items.size() == 1) return inst.get_class().name + "(" + repr(in, t->items[0]) + ")";
  if (t && t->items.empty()) return inst.get_class().name + "()";
  return inst.get_class().name + repr(in, args);
}

std::string exception_str(Interp& in, const InstanceObj& inst) {
  NestGuard nest(in, " while getting the str of an object");  // e.args = (e,)
  Obj args = exception_args(inst);
  auto* t = args.as<TupleObj>();
  if (!t) return str(in, args);
  if (t->items.empty()) return "";
  if (t->items.size() == 2 && inst.get_class().is_subclass_of(find_builtin_class(in, "OSError").as<ClassObj>())) {
    // OSError(errno, strerror, filename): [Errno 2] No such file or directory: 'x'
    auto attr = [&](const char* n) { const Obj* v = const_cast<InstanceObj&>(inst).attrs.find(std::string_view(n));
                                     return v ? *v : Obj(); };
    std::string s = "[Errno " + str(in, t->items[0]) + "] " + str(in, t->items[1]);
    if (!attr("filename").is_none()) s += ": " + repr(in, attr("filename"));
    if (!attr("filename2").is_none()) s += " -> " + repr(in, attr("filename2"));
    return s;
  }
  if (t->items.size() == 1) {
    // KeyError shows the key as repr (KeyError: 'a').
    bool key_error = inst.get_class().is_subclass_of(exception_class_for(in, ErrorKind::Key).as<ClassObj>());
    return key_error ? repr(in, t->items[0]) : str(in, t->items[0]);
  }
  return repr(in, args);
}

// Containers that are being printed, so a list containing itself prints [...].
thread_local std::vector<const HeapObj*> repr_stack;

struct ReprGuard {
  bool recursive = false;
  explicit ReprGuard(const Obj& o) {
    for (auto* h : repr_stack) recursive = recursive || h == o.heap();
    if (!recursive) repr_stack.push_back(o.heap());
  }
  ~ReprGuard() {
    if (!recursive) repr_stack.pop_back();
  }
};

// Items are re-read and held on every step: a user __repr__ may mutate the container.
std::string join_reprs(Interp& in, const std::vector<Obj>& items) {
  std::string s;
  for (size_t i = 0; i < items.size(); ++i) {
    Obj item = items[i];
    s += (i ? ", " : "") + repr(in, item);
  }
  return s;
}

// CPython 3.11's OrderedDict repr: OrderedDict([(key, value), ...]).
std::string ordered_dict_repr(Interp& in, const Obj& o, bool recursive) {
  const OrderedMap& m = o.as<DictObj>()->map;
  if (m.size() == 0) return "OrderedDict()";
  if (recursive) return "...";
  std::vector<Obj> pairs;
  m.for_each([&](const Obj& k, const Obj& v) { pairs.push_back(make_tuple({k, v})); });
  return "OrderedDict([" + join_reprs(in, pairs) + "])";
}

std::string repr_result(Interp&, const Obj& r) {
  KILN_CHECK(r.kind() == Kind::Str, Type, "__repr__ returned non-string (type ", type_name(r), ")");
  return r.as<StrObj>()->value;
}

std::string container_repr(Interp& in, const Obj& o) {
  NestGuard nest(in, " while getting the repr of an object");
  ReprGuard g(o);
  switch (o.kind()) {
    case Kind::List: return g.recursive ? "[...]" : "[" + join_reprs(in, o.as<ListObj>()->items) + "]";
    case Kind::Tuple: {
      auto* t = o.as<TupleObj>();
      if (t->cls.kind() == Kind::Class) {  // a tuple subclass's own __repr__ (a namedtuple's)
        Obj f = special_method(in, o, "__repr__");
        if (!f.is_null()) return repr_result(in, in.call(f, {}));
      }
      std::string body = join_reprs(in, t->items);
      if (t->is_size) return "torch.Size([" + body + "])";
      if (!t->struct_name.empty()) {
        // PyTorch's structseq repr has one "field=value" a line; CPython's (sys.float_info) one line.
        bool torch_style = t->struct_name.starts_with("torch.");
        std::string s = t->struct_name + "(";
        for (size_t i = 0; i < t->items.size() && i < t->fields.size(); ++i)
          s += (torch_style ? (i ? ",\n" : "\n") : (i ? ", " : "")) + t->fields[i] + "=" + repr(in, t->items[i]);
        return s + ")";
      }
      return t->items.size() == 1 ? "(" + body + ",)" : "(" + body + ")";
    }
    case Kind::DictView: {
      auto* v = o.as<DictViewObj>();
      return dict_view_type_name(*v) + "([" + (g.recursive ? "..." : join_reprs(in, view_elements(*v))) + "])";
    }
    case Kind::Dict: {
      if (o.as<DictObj>()->ordered) return ordered_dict_repr(in, o, g.recursive);
      if (g.recursive) return "{...}";
      std::string s = "{";
      bool first = true;
      std::vector<std::pair<Obj, Obj>> entries = o.as<DictObj>()->map.items();
      for (const auto& [k, v] : entries) {
        if (k.is_null()) continue;
        s += (first ? "" : ", ") + repr(in, k) + ": " + repr(in, v);
        first = false;
      }
      return s + "}";
    }
    default: {
      auto& map = o.as<SetObj>()->map;
      bool frozen = o.as<SetObj>()->frozen;
      if (map.size() == 0) return frozen ? "frozenset()" : "set()";
      if (g.recursive) return "{...}";
      std::string s = frozen ? "frozenset({" : "{";
      bool first = true;
      for (const Obj& k : set_items_in_order(*o.as<SetObj>())) {
        s += (first ? "" : ", ") + repr(in, k);
        first = false;
      }
      return s + (frozen ? "})" : "}");
    }
  }
}

std::string opt_repr(Interp& in, const Obj& o) { return o.is_none() ? "None" : repr(in, o); }

std::string instance_repr(Interp& in, const Obj& o) {
  auto* inst = o.as<InstanceObj>();
  Obj f = special_method(in, o, "__repr__");
  if (!f.is_null()) return repr_result(in, in.call(f, {}));
  if (o.is(not_implemented(in))) return "NotImplemented";
  if (o.is(ellipsis(in))) return "Ellipsis";
  if (inst->get_class().is_exception) return exception_repr(in, *inst);
  return "<" + class_module(inst->get_class()) + "." + inst->get_class().name + " object at " + addr(o) + ">";
}

}  // namespace

std::string repr(Interp& in, const Obj& o) {
  switch (o.kind()) {
    case Kind::None: return "None";
    case Kind::Bool: return o.as_bool() ? "True" : "False";
    case Kind::Int: return std::to_string(o.as_int());
    case Kind::Float: return float_repr(o.as_float());
    case Kind::DType: return dtype_repr(o.as_dtype());
    case Kind::Str: return str_repr(o.as<StrObj>()->value);
    case Kind::Bytes: return bytes_repr(o.as<BytesObj>()->value);
    case Kind::List: case Kind::Tuple: case Kind::Dict: case Kind::Set: case Kind::DictView:
      return container_repr(in, o);
    case Kind::Slice: {
      auto* s = o.as<SliceObj>();
      return "slice(" + opt_repr(in, s->start) + ", " + opt_repr(in, s->stop) + ", " + opt_repr(in, s->step) + ")";
    }
    case Kind::Range: {
      auto* r = o.as<RangeObj>();
      std::string s = "range(" + std::to_string(r->start) + ", " + std::to_string(r->stop);
      return s + (r->step == 1 ? ")" : ", " + std::to_string(r->step) + ")");
    }
    case Kind::Function: return "<function " + o.as<FunctionObj>()->qualname + " at " + addr(o) + ">";
    case Kind::Builtin: {
      auto* b = o.as<BuiltinObj>();
      if (b->self.is_null()) return "<built-in function " + b->name + ">";
      return "<built-in method " + b->name + " of " + type_name(b->self) + " object at " + addr(b->self) + ">";
    }
    case Kind::BoundMethod: {
      auto* m = o.as<BoundMethodObj>();
      std::string name = m->func.kind() == Kind::Function ? m->func.as<FunctionObj>()->qualname
                         : m->func.kind() == Kind::Builtin ? m->func.as<BuiltinObj>()->name
                                                           : "?";
      return "<bound method " + name + " of " + repr(in, m->self) + ">";
    }
    case Kind::Class: {
      Obj f = special_method(in, o, "__repr__");
      if (f.is_null()) return class_repr(*o.as<ClassObj>());
      return str_of(in.call(f, {}), "__repr__ result");
    }
    case Kind::Instance: return instance_repr(in, o);
    case Kind::Module: {  // a module from a file says where it came from
      auto* m = o.as<ModuleObj>();
      const Obj* file = m->attrs.find(std::string_view("__file__"));
      if (file && file->kind() == Kind::Str) return "<module '" + m->name + "' from '" + file->as<StrObj>()->value + "'>";
      return "<module '" + m->name + "' (built-in)>";
    }
    case Kind::Tensor: return tensor_repr(in, o);
    case Kind::Device: return device_repr(*o.as<DeviceObj>());
    case Kind::Iterator: return "<" + type_name(o) + " object at " + addr(o) + ">";
    case Kind::Property: return "<property object at " + addr(o) + ">";
    case Kind::StaticMethod: return "<staticmethod(" + repr(in, o.as<StaticMethodObj>()->func) + ")>";
    case Kind::ClassMethod: return "<classmethod(" + repr(in, o.as<ClassMethodObj>()->func) + ")>";
    case Kind::Cell: return "<cell at " + addr(o) + ">";
    case Kind::Code: return "<code object " + static_cast<Code*>(o.heap())->name + " at " + addr(o) + ">";
    case Kind::Null: return "<NULL>";
  }
  return "<?>";
}

// The result of the class's __str__, if it defines one.
static std::optional<std::string> own_str(Interp& in, const Obj& o) {
  Obj f = special_method(in, o, "__str__");
  if (f.is_null()) return std::nullopt;
  Obj r = in.call(f, {});
  KILN_CHECK(r.kind() == Kind::Str, Type, "__str__ returned non-string (type ", type_name(r), ")");
  return r.as<StrObj>()->value;
}

std::string str(Interp& in, const Obj& o) {
  switch (o.kind()) {
    case Kind::Str: return o.as<StrObj>()->value;
    case Kind::Instance: {
      if (std::optional<std::string> s = own_str(in, o)) return *s;
      auto* inst = o.as<InstanceObj>();
      if (inst->get_class().is_exception && special_method(in, o, "__repr__").is_null())
        return exception_str(in, *inst);
      return repr(in, o);
    }
    case Kind::Tuple:
      if (o.as<TupleObj>()->cls.kind() == Kind::Class)  // a tuple subclass's own __str__
        if (std::optional<std::string> s = own_str(in, o)) return *s;
      return repr(in, o);
    case Kind::Device: return device_str(*o.as<DeviceObj>());
    default: return repr(in, o);
  }
}

// ---- len, items, containment ----------------------------------------------------------------
int64_t len(Interp& in, const Obj& o) {
  switch (o.kind()) {
    case Kind::Str: return int64_t(utf8_count(o.as<StrObj>()->value));
    case Kind::Bytes: return int64_t(o.as<BytesObj>()->value.size());
    case Kind::List: return int64_t(o.as<ListObj>()->items.size());
    case Kind::Tuple: return int64_t(o.as<TupleObj>()->items.size());
    case Kind::Dict: return int64_t(o.as<DictObj>()->map.size());
    case Kind::DictView: return int64_t(o.as<DictViewObj>()->dict.as<DictObj>()->map.size());
    case Kind::Set: return int64_t(o.as<SetObj>()->map.size());
    case Kind::Range: return o.as<RangeObj>()->length();
    case Kind::Tensor: {
      const Tensor& t = o.as<TensorObj>()->tensor;
      KILN_CHECK(t.dim() > 0, Type, "len() of a 0-d tensor");
      return t.size(0);
    }
    case Kind::Class:
    case Kind::Instance: {
      Obj f = special_method(in, o, "__len__");
      if (f.is_null()) break;
      Obj r = in.call(f, {});
      int64_t n = to_index(in, r, "an integer");
      KILN_CHECK(n >= 0, Value, "__len__() should return >= 0");
      return n;
    }
    default: break;
  }
  throw Error(detail::cat("object of type '", type_name(o), "' has no len()"), ErrorKind::Type);
}

// Python's slice.indices(length): clamps start/stop, returns the item count.
int64_t slice_indices(Interp& in, const SliceObj& s, int64_t length, int64_t& start, int64_t& stop, int64_t& step) {
  const char* msg = "slice indices must be integers or None or have an __index__ method";
  auto idx = [&](const Obj& o) -> int64_t {
    if (o.is_intlike()) return o.as_int();
    try {
      return to_index(in, o, "an integer");
    } catch (const Error&) {
      throw Error(msg, ErrorKind::Type);
    }
  };
  step = s.step.is_none() ? 1 : idx(s.step);
  KILN_CHECK(step != 0, Value, "slice step cannot be zero");
  auto clamp = [&](const Obj& o, int64_t def) -> int64_t {
    if (o.is_none()) return def;
    int64_t v = idx(o);
    if (v < 0) {
      v += length;
      if (v < 0) v = step < 0 ? -1 : 0;
    } else if (v >= length) {
      v = step < 0 ? length - 1 : length;
    }
    return v;
  };
  start = clamp(s.start, step < 0 ? length - 1 : 0);
  stop = clamp(s.stop, step < 0 ? -1 : length);
  if (step < 0) return stop < start ? (start - stop - 1) / (-step) + 1 : 0;
  return start < stop ? (stop - start - 1) / step + 1 : 0;
}

namespace {

std::vector<Obj> slice_items(Interp& in, const std::vector<Obj>& items, const SliceObj& s) {
  int64_t start, stop, step;
  int64_t n = slice_indices(in, s, int64_t(items.size()), start, stop, step);
  std::vector<Obj> out;
  out.reserve(size_t(n));
  for (int64_t i = 0, j = start; i < n; ++i, j += step) out.push_back(items[size_t(j)]);
  return out;
}

int64_t seq_index(Interp& in, const Obj& key, int64_t n, const char* kind) {
  int64_t i;
  if (key.is_intlike()) {
    i = key.as_int();
  } else {
    try {
      i = to_index(in, key, "an integer");
    } catch (const Error&) {
      if (key.kind() == Kind::Tensor) throw;  // PyTorch's __index__ words it
      if (std::string_view(kind) == "string")
        throw Error(detail::cat("string indices must be integers, not '", type_name(key), "'"), ErrorKind::Type);
      throw Error(detail::cat(kind, " indices must be integers or slices, not ", type_name(key)), ErrorKind::Type);
    }
  }
  if (i < 0) i += n;
  if (i < 0 || i >= n) throw Error(detail::cat(kind, " index out of range"), ErrorKind::Index);
  return i;
}

Obj str_getitem(Interp& in, const std::string& s, const Obj& key) {
  bool ascii = utf8_count(s) == s.size();
  if (auto* sl = key.as<SliceObj>()) {
    std::vector<size_t> offs = ascii ? std::vector<size_t>() : utf8_offsets(s);
    int64_t n = ascii ? int64_t(s.size()) : int64_t(offs.size()) - 1;
    int64_t start, stop, step;
    int64_t count = slice_indices(in, *sl, n, start, stop, step);
    if (ascii && step == 1) return make_str(s.substr(size_t(start), size_t(count)));
    std::string out;
    for (int64_t i = 0, j = start; i < count; ++i, j += step) {
      if (ascii) out += s[size_t(j)];
      else out += s.substr(offs[size_t(j)], offs[size_t(j) + 1] - offs[size_t(j)]);
    }
    return make_str(std::move(out));
  }
  if (ascii) return make_str(std::string(1, s[size_t(seq_index(in, key, int64_t(s.size()), "string"))]));
  std::vector<size_t> offs = utf8_offsets(s);
  size_t i = size_t(seq_index(in, key, int64_t(offs.size()) - 1, "string"));
  return make_str(s.substr(offs[i], offs[i + 1] - offs[i]));
}

Obj range_getitem(Interp& in, const RangeObj& r, const Obj& key) {
  int64_t n = r.length();
  if (auto* sl = key.as<SliceObj>()) {
    int64_t start, stop, step;
    int64_t count = slice_indices(in, *sl, n, start, stop, step);
    int64_t first = r.start + start * r.step, st = r.step * step;
    return make<RangeObj>(first, first + count * st, st);
  }
  return Obj::from_int(r.start + seq_index(in, key, n, "range object") * r.step);
}

}  // namespace

Obj getitem(Interp& in, const Obj& o, const Obj& key) {
  switch (o.kind()) {
    case Kind::List: {
      auto& items = o.as<ListObj>()->items;
      if (auto* sl = key.as<SliceObj>()) return make_list(slice_items(in, items, *sl));
      return items[size_t(seq_index(in, key, int64_t(items.size()), "list"))];
    }
    case Kind::Tuple: {
      auto* t = o.as<TupleObj>();
      if (auto* sl = key.as<SliceObj>()) return Obj(new TupleObj(slice_items(in, t->items, *sl), t->is_size));
      return t->items[size_t(seq_index(in, key, int64_t(t->items.size()), "tuple"))];
    }
    case Kind::Str: return str_getitem(in, o.as<StrObj>()->value, key);
    case Kind::Bytes: return bytes_getitem(in, o.as<BytesObj>()->value, key);
    case Kind::Range: return range_getitem(in, *o.as<RangeObj>(), key);
    case Kind::Dict: {
      if (Obj* v = o.as<DictObj>()->map.find(key)) return *v;
      raise_exception(in, exception_class_for(in, ErrorKind::Key), {key});
    }
    case Kind::Tensor: return tensor_getitem(in, o, key);
    case Kind::Instance: {
      Obj f = special_method(in, o, "__getitem__");
      if (!f.is_null()) return in.call(f, {&key, 1});
      break;
    }
    case Kind::Class: {
      Obj f = special_method(in, o, "__getitem__");
      if (!f.is_null()) return in.call(f, {&key, 1});
      // PEP 560: C[key] is C.__class_getitem__(key), which CPython makes an
      // implicit classmethod (an explicit staticmethod takes the key alone).
      Obj cg = o.as<ClassObj>()->lookup("__class_getitem__");
      if (const auto* sm = cg.as<StaticMethodObj>()) return in.call(sm->func, {&key, 1});
      if (const auto* cm = cg.as<ClassMethodObj>()) cg = cm->func;
      if (!cg.is_null()) {
        Obj args[2] = {o, key};
        return in.call(cg, args);
      }
      // list[int] and friends in annotations-like positions evaluate to the class itself.
      auto* c = o.as<ClassObj>();
      if (c->native_kind != Kind::Instance) return o;
      break;
    }
    default: break;
  }
  throw Error(detail::cat("'", type_name(o), "' object is not subscriptable"), ErrorKind::Type);
}

namespace {

void list_setslice(Interp& in, std::vector<Obj>& items, const SliceObj& sl, const Obj& value) {
  std::vector<Obj> vals;
  try {
    extend_from_iterable(in, vals, value);
  } catch (const Error& e) {
    if (e.kind() == ErrorKind::Type) throw Error("can only assign an iterable", ErrorKind::Type);
    throw;
  }
  int64_t start, stop, step;
  int64_t n = slice_indices(in, sl, int64_t(items.size()), start, stop, step);
  if (step == 1) {
    if (stop < start) stop = start;
    items.erase(items.begin() + start, items.begin() + stop);
    items.insert(items.begin() + start, vals.begin(), vals.end());
    return;
  }
  if (int64_t(vals.size()) != n)
    throw Error(detail::cat("attempt to assign sequence of size ", vals.size(), " to extended slice of size ", n),
                ErrorKind::Value);
  for (int64_t i = 0, j = start; i < n; ++i, j += step) items[size_t(j)] = vals[size_t(i)];
}

void list_delslice(Interp& in, std::vector<Obj>& items, const SliceObj& sl) {
  int64_t start, stop, step;
  int64_t n = slice_indices(in, sl, int64_t(items.size()), start, stop, step);
  std::vector<bool> drop(items.size(), false);
  for (int64_t i = 0, j = start; i < n; ++i, j += step) drop[size_t(j)] = true;
  std::vector<Obj> kept;
  for (size_t i = 0; i < items.size(); ++i)
    if (!drop[i]) kept.push_back(std::move(items[i]));
  items = std::move(kept);
}

}  // namespace

void setitem(Interp& in, const Obj& o, const Obj& key, Obj value) {
  switch (o.kind()) {
    case Kind::List: {
      auto& items = o.as<ListObj>()->items;
      if (auto* sl = key.as<SliceObj>()) return list_setslice(in, items, *sl, value);
      items[size_t(seq_index(in, key, int64_t(items.size()), "list assignment"))] = std::move(value);
      return;
    }
    case Kind::Dict: o.as<DictObj>()->map.set(key, std::move(value)); return;
    case Kind::Tensor: tensor_setitem(in, o, key, value); return;
    case Kind::Instance: {
      Obj f = special_method(in, o, "__setitem__");
      if (f.is_null()) break;
      Obj args[] = {key, value};
      in.call(f, args);
      return;
    }
    default: break;
  }
  throw Error(detail::cat("'", type_name(o), "' object does not support item assignment"), ErrorKind::Type);
}

void delitem(Interp& in, const Obj& o, const Obj& key) {
  switch (o.kind()) {
    case Kind::List: {
      auto& items = o.as<ListObj>()->items;
      if (auto* sl = key.as<SliceObj>()) return list_delslice(in, items, *sl);
      items.erase(items.begin() + seq_index(in, key, int64_t(items.size()), "list assignment"));
      return;
    }
    case Kind::Dict:
      if (!o.as<DictObj>()->map.erase(key)) raise_exception(in, exception_class_for(in, ErrorKind::Key), {key});
      return;
    case Kind::Instance: {
      Obj f = special_method(in, o, "__delitem__");
      if (f.is_null()) break;
      in.call(f, {&key, 1});
      return;
    }
    default: break;
  }
  throw Error(detail::cat("'", type_name(o), "' object doesn't support item deletion"), ErrorKind::Type);
}

bool view_contains(Interp& in, const DictViewObj& v, const Obj& item) {
  const OrderedMap& m = v.dict.as<DictObj>()->map;
  if (v.what == DictIterKind::Keys) return m.find(item) != nullptr;
  if (v.what == DictIterKind::Items) {
    auto* t = item.as<TupleObj>();
    if (!t || t->items.size() != 2) return false;
    const Obj* val = m.find(t->items[0]);
    return val && equals(in, *val, t->items[1]);
  }
  for (const Obj& x : view_elements(v))
    if (equals(in, x, item)) return true;
  return false;
}

bool contains(Interp& in, const Obj& container, const Obj& item) {
  switch (container.kind()) {
    case Kind::List: {
      // Each item is held while compared: a user __eq__ may shrink the list.
      const auto& items = container.as<ListObj>()->items;
      for (size_t i = 0; i < items.size(); ++i) {
        Obj x = items[i];
        if (equals(in, x, item)) return true;
      }
      return false;
    }
    case Kind::Tuple:
      for (const Obj& x : container.as<TupleObj>()->items)
        if (equals(in, x, item)) return true;
      return false;
    case Kind::Str: {
      auto* s = item.as<StrObj>();
      if (!s)
        throw Error(detail::cat("'in <string>' requires string as left operand, not ", type_name(item)), ErrorKind::Type);
      return container.as<StrObj>()->value.find(s->value) != std::string::npos;
    }
    case Kind::Bytes: return bytes_contains(in, container.as<BytesObj>()->value, item);
    case Kind::Dict: return container.as<DictObj>()->map.find(item) != nullptr;
    case Kind::DictView: return view_contains(in, *container.as<DictViewObj>(), item);
    case Kind::Set: return container.as<SetObj>()->map.find(item) != nullptr;
    case Kind::Range: {
      auto* r = container.as<RangeObj>();
      if (item.is_float() && std::floor(item.as_float()) != item.as_float()) return false;
      if (!item.is_number()) break;
      int64_t v = item.is_float() ? int64_t(item.as_float()) : item.as_int();
      if (r->step > 0 ? (v < r->start || v >= r->stop) : (v > r->start || v <= r->stop)) return false;
      return (v - r->start) % r->step == 0;
    }
    case Kind::Tensor: {
      // PyTorch: `x in t` is (t == x).any().
      Obj eq = tensor_compare(in, CmpOpKind::Eq, container, item);
      return truthy(in, in.call_method(eq, "any"));
    }
    case Kind::Instance: {
      Obj f = special_method(in, container, "__contains__");
      if (!f.is_null()) return truthy(in, in.call(f, {&item, 1}));
      break;
    }
    default: break;
  }
  Obj it;
  try {
    it = iter(in, container);
  } catch (const Error& e) {
    if (e.kind() != ErrorKind::Type) throw;
    throw Error(detail::cat("argument of type '", type_name(container), "' is not iterable"), ErrorKind::Type);
  }
  Obj x;
  while (iter_next(in, it, x))
    if (equals(in, x, item)) return true;
  return false;
}

// ---- iteration ---------------------------------------------------------------------------
Obj iter(Interp& in, const Obj& o) {
  switch (o.kind()) {
    case Kind::Iterator: return o;
    case Kind::List: case Kind::Tuple: case Kind::Str: return make_seq_iter(o);
    case Kind::Bytes: {  // its items are ints
      std::vector<Obj> ints;
      for (unsigned char c : o.as<BytesObj>()->value) ints.push_back(Obj::from_int(c));
      return make_seq_iter(make_tuple(std::move(ints)));
    }
    case Kind::Range: {
      auto* r = o.as<RangeObj>();
      return make_range_iter(r->start, r->step, r->length());
    }
    case Kind::Dict: return make_dict_iter(o, DictIterKind::Keys);
    case Kind::DictView: return make_dict_iter(o.as<DictViewObj>()->dict, o.as<DictViewObj>()->what);
    case Kind::Set: return make_set_iter(o);
    case Kind::Tensor: return tensor_iter(in, o);
    case Kind::Class:
    case Kind::Instance: {
      Obj f = special_method(in, o, "__iter__");
      if (!f.is_null()) {
        Obj it = in.call(f, {});
        if (it.kind() == Kind::Iterator) return it;
        KILN_CHECK(it.kind() == Kind::Instance && !special_method(in, it, "__next__").is_null(), Type,
                   "iter() returned non-iterator of type '", type_name(it), "'");
        return make_user_iter(it);
      }
      if (!special_method(in, o, "__getitem__").is_null()) return make_getitem_iter(o);
      break;
    }
    default: break;
  }
  throw Error(detail::cat("'", type_name(o), "' object is not iterable"), ErrorKind::Type);
}

void extend_from_iterable(Interp& in, std::vector<Obj>& out, const Obj& iterable) {
  if (auto* l = iterable.as<ListObj>()) {
    check_alloc(in, uint64_t(out.size()) + l->items.size(), sizeof(Obj));
    if (&out == &l->items) {  // x += x
      std::vector<Obj> copy = l->items;
      out.insert(out.end(), copy.begin(), copy.end());
    } else {
      out.insert(out.end(), l->items.begin(), l->items.end());
    }
    return;
  }
  if (auto* t = iterable.as<TupleObj>()) {
    check_alloc(in, uint64_t(out.size()) + t->items.size(), sizeof(Obj));
    out.insert(out.end(), t->items.begin(), t->items.end());
    return;
  }
  Obj it = iter(in, iterable);
  Obj x;
  while (iter_next(in, it, x)) out.push_back(std::move(x));
}

// ---- types --------------------------------------------------------------------------------
namespace {

const char* builtin_type_name(Kind k) {
  switch (k) {
    case Kind::None: return "NoneType";
    case Kind::Function: return "function";
    case Kind::Builtin: return "builtin_function_or_method";
    case Kind::BoundMethod: return "method";
    case Kind::Class: return "type";
    case Kind::Module: return "module";
    case Kind::Iterator: return "iterator";
    case Kind::Cell: return "cell";
    case Kind::Code: return "code";
    default: return nullptr;
  }
}

// torch.Tensor, torch.dtype, torch.device live in the torch module, nn.Parameter
// in torch._C (torch_module.cpp).
Obj torch_class(Interp& in, const char* name, const char* module = "torch") {
  try {
    Obj torch = in.import_module(module);
    if (Obj* c = torch.as<ModuleObj>()->attrs.find(std::string_view(name)))
      if (c->kind() == Kind::Class) return *c;
  } catch (const Error&) {
  }
  return find_builtin_class(in, name);
}

}  // namespace

Obj type_of(Interp& in, const Obj& o) {
  switch (o.kind()) {
    case Kind::Instance: return o.as<InstanceObj>()->cls;
    case Kind::Tensor:
      return o.as<TensorObj>()->is_parameter ? torch_class(in, "Parameter", "torch._C") : torch_class(in, "Tensor");
    case Kind::DType: return torch_class(in, "dtype");
    case Kind::Device: return torch_class(in, "device");
    case Kind::Tuple:
      if (o.as<TupleObj>()->cls.kind() == Kind::Class) return o.as<TupleObj>()->cls;
      if (o.as<TupleObj>()->is_size) return find_builtin_class(in, "Size");
      if (!o.as<TupleObj>()->struct_name.empty()) return return_type_class(in, o.as<TupleObj>()->struct_name);
      break;
    case Kind::Dict:
      if (o.as<DictObj>()->ordered) return find_builtin_class(in, "OrderedDict");
      break;
    case Kind::DictView: return find_builtin_class(in, dict_view_type_name(*o.as<DictViewObj>()));
    case Kind::Iterator:
      if (std::string_view(o.as<IteratorObj>()->type_name()) == "generator") return find_builtin_class(in, "generator");
      break;
    case Kind::Set:
      if (o.as<SetObj>()->frozen) return find_builtin_class(in, "frozenset");
      break;
    default: break;
  }
  const char* special = builtin_type_name(o.kind());
  Obj c = find_builtin_class(in, special ? std::string_view(special) : kind_name(o.kind()));
  if (c.is_null()) throw Error(detail::cat("type() of ", kind_name(o.kind()), " is not supported"), ErrorKind::Type);
  return c;
}

// A prelude class standing for tensors of a kind Kiln's tensors lack (the
// complex tensors of prelude/_complex.py) sets _kiln_tensor_like, so that
// isinstance(z, torch.Tensor) holds as in PyTorch.
bool tensor_like(const Obj& o) {
  const InstanceObj* inst = o.as<InstanceObj>();
  if (!inst) return false;
  Obj flag = inst->get_class().lookup("_kiln_tensor_like");
  return flag.is_bool() && flag.as_bool();
}

bool isinstance(Interp& in, const Obj& o, const Obj& cls_or_tuple) {
  if (auto* t = cls_or_tuple.as<TupleObj>()) {
    for (const Obj& c : t->items)
      if (isinstance(in, o, c)) return true;
    return false;
  }
  auto* cls = cls_or_tuple.as<ClassObj>();
  KILN_CHECK(cls, Type, "isinstance() arg 2 must be a type, a tuple of types, or a union");
  if (cls->native_kind != Kind::Instance) {
    if (o.kind() == Kind::Instance && cls->native_kind == Kind::Tensor && cls->name == "Tensor")
      return tensor_like(o);
    if (o.kind() == Kind::Tensor && cls->name == "Parameter") return o.as<TensorObj>()->is_parameter;
    if (o.kind() == Kind::Tensor && cls->native_kind == Kind::Tensor)  // torch.LongTensor: a CPU tensor of its dtype
      if (const Obj* d = const_cast<ClassObj*>(cls)->attrs.find(std::string_view("dtype")))
        return d->kind() == Kind::DType && o.as<TensorObj>()->tensor.dtype() == d->as_dtype() &&
               o.as<TensorObj>()->tensor.device().type == DeviceType::CPU;
    if (o.kind() == Kind::Tuple && cls->name == "Size") return o.as<TupleObj>()->is_size;
    if (o.kind() == Kind::Tuple && cls->name != "tuple") return type_of(in, o).as<ClassObj>()->is_subclass_of(cls);
    if (o.kind() == Kind::Dict && cls->name == "OrderedDict") return o.as<DictObj>()->ordered;
    if (o.kind() == Kind::DictView) return cls->name == dict_view_type_name(*o.as<DictViewObj>());
    if (o.kind() == Kind::Set) return cls->native_kind == Kind::Set && o.as<SetObj>()->frozen == (cls->name == "frozenset");
    if (o.kind() == Kind::Iterator && cls->name == "generator")
      return std::string_view(o.as<IteratorObj>()->type_name()) == "generator";
    if (o.kind() == cls->native_kind) return true;
    return o.is_bool() && cls->native_kind == Kind::Int;
  }
  if (cls_or_tuple.is(find_builtin_class(in, "object"))) return true;
  Obj t = type_of(in, o);
  if (t.as<ClassObj>()->is_subclass_of(cls)) return true;
  // The class's __kiln_metaclass__ may widen the test (typing's runtime-checkable protocols).
  Obj hook = special_method(in, cls_or_tuple, "__instancecheck__");
  return !hook.is_null() && truthy(in, in.call(hook, {&o, 1}));
}

// ---- attributes ---------------------------------------------------------------------------
namespace {

Obj module_attr(const Obj& m, const std::string& name) {
  auto* mod = m.as<ModuleObj>();
  if (Obj* v = mod->attrs.find(std::string_view(name))) return *v;
  if (name == "__name__") return make_str(mod->name);
  return Obj::null();
}

// The class, then its C3 order (ending at object).
Obj class_mro(Interp& in, const Obj& cls) {
  std::vector<Obj> order{cls};
  const std::vector<Obj>& rest = cls.as<ClassObj>()->mro;
  order.insert(order.end(), rest.begin(), rest.end());
  Obj object = find_builtin_class(in, "object");
  if (!order.back().is(object)) order.push_back(object);
  return make_tuple(std::move(order));
}

// cls.mro(): the same order as a list.
static Obj class_mro_method(Interp& in, const CallArgs& a) {
  a.check("mro", 0, 0);
  return make_list(class_mro(in, a.callee->data).as<TupleObj>()->items);
}

Obj class_attr(Interp& in, const Obj& o, const std::string& name) {
  Obj v = class_getattr(in, o, name);
  if (!v.is_null()) return v;
  auto* c = o.as<ClassObj>();
  if (name == "__name__" || name == "__qualname__") return make_str(c->name);
  if (name == "__module__") return make_str(class_module(*c));
  if (name == "__base__") return c->base.is_null() ? Obj() : c->base;
  if (name == "__bases__") return make_tuple(c->bases);
  if (name == "__mro__") return class_mro(in, o);
  if (name == "mro") return make_builtin("mro", class_mro_method, o);
  if (name == "__dict__") {  // a snapshot, where CPython gives a read-only view
    auto d = new DictObj();
    Obj res(d);
    c->attrs.for_each([&](const Obj& k, const Obj& val) { d->map.set(k, val); });
    return res;
  }
  if (name == "__doc__") return Obj();
  return Obj::null();
}

// __class__ and __dict__ come before instance_getattr, whose __getattr__
// fallback must not see them (in CPython they are found by normal lookup).
Obj instance_attr(Interp& in, const Obj& o, const std::string& name) {
  auto* inst = o.as<InstanceObj>();
  if (name == "__class__") return inst->cls;
  if (name == "__dict__") {
    auto d = new DictObj();
    Obj res(d);
    inst->attrs.for_each([&](const Obj& k, const Obj& val) { d->map.set(k, val); });
    return res;
  }
  return instance_getattr(in, o, name);  // Null when absent; it tries __getattr__
}

static Obj lookup_kind_attr(Interp& in, const Obj& o, const std::string& name) {
  switch (o.kind()) {
    case Kind::Instance: return instance_attr(in, o, name);
    case Kind::Class: return class_attr(in, o, name);
    case Kind::Module: return module_attr(o, name);
    case Kind::Tensor: return tensor_getattr(in, o, name);
    case Kind::Function: case Kind::BoundMethod: return function_attr(o, name);
    case Kind::Code: return code_attr(o, name);
    case Kind::Tuple: {
      auto* t = o.as<TupleObj>();
      for (size_t i = 0; i < t->fields.size() && i < t->items.size(); ++i)
        if (t->fields[i] == name) return t->items[i];
      Obj v = tuple_subclass_attr(in, o, name);
      return v.is_null() ? builtin_method(in, o, name) : v;
    }
    case Kind::Builtin: {
      Obj v = function_attr(o, name);
      return v.is_null() ? builtin_method(in, o, name) : v;
    }
    default: return builtin_method(in, o, name);
  }
}

// Null when absent.
Obj lookup_attr(Interp& in, const Obj& o, const std::string& name) {
  Obj v = lookup_kind_attr(in, o, name);
  // x.__class__ on a list, tuple, str, tensor, ...: its type, as type(x) gives it.
  if (v.is_null() && name == "__class__") return type_of(in, o);
  return v;
}

[[noreturn]] void no_attribute(const Obj& o, const std::string& name) {
  if (auto* m = o.as<ModuleObj>())
    throw Error(detail::cat("module '", m->name, "' has no attribute '", name, "'"), ErrorKind::Attribute);
  if (auto* c = o.as<ClassObj>())
    throw Error(detail::cat("type object '", c->name, "' has no attribute '", name, "'"), ErrorKind::Attribute);
  const TupleObj* t = o.as<TupleObj>();
  std::string type = t && !t->struct_name.empty() ? t->struct_name : type_name(o);  // 'sys.float_info' object
  throw Error(detail::cat("'", type, "' object has no attribute '", name, "'"), ErrorKind::Attribute);
}

bool is_attribute_error(Interp& in, const ScriptException& e) {
  return isinstance(in, e.exc, exception_class_for(in, ErrorKind::Attribute));
}

}  // namespace

Obj getattr(Interp& in, const Obj& o, const std::string& name) {
  Obj v = lookup_attr(in, o, name);
  if (v.is_null()) no_attribute(o, name);
  return v;
}

bool try_getattr(Interp& in, const Obj& o, const std::string& name, Obj& out) {
  try {
    out = lookup_attr(in, o, name);
  } catch (const Error& e) {
    if (e.kind() == ErrorKind::Attribute) return false;
    throw;
  } catch (const ScriptException& e) {
    if (is_attribute_error(in, e)) return false;
    throw;
  }
  return !out.is_null();
}

namespace {

// Stores an instance attribute the way object.__setattr__ does: through a
// property's setter when the class has one, else into the instance dict.
// Stores through a property of the class, if it has one (false if not).
bool property_store(Interp& in, const ClassObj& cls, const Obj& o, const std::string& name, const Obj& value) {
  auto* p = cls.lookup(name).as<PropertyObj>();
  if (!p) return false;
  if (p->fset.is_none() || p->fset.is_null())
    throw Error(detail::cat("property '", name, "' of '", cls.name, "' object has no setter"), ErrorKind::Attribute);
  Obj args[] = {o, value};
  in.call(p->fset, args);
  return true;
}

void instance_store(Interp& in, const Obj& o, const std::string& name, Obj value) {
  auto* inst = o.as<InstanceObj>();
  if (name == "__class__") return set_instance_class(*inst, value);
  if (property_store(in, inst->get_class(), o, name, value)) return;
  inst->attrs.set(std::string_view(name), std::move(value));
}

}  // namespace

void set_instance_class(InstanceObj& inst, const Obj& cls) {
  const ClassObj* c = cls.as<ClassObj>();
  if (!c) throw Error(detail::cat("__class__ must be set to a class, not '", type_name(cls), "' object"), ErrorKind::Type);
  if (c->native_kind != Kind::Instance || c->is_exception != inst.get_class().is_exception)
    throw Error("__class__ assignment only supported for mutable types or ModuleType subclasses", ErrorKind::Type);
  inst.cls = cls;
}

void setattr(Interp& in, const Obj& o, const std::string& name, Obj value) {
  switch (o.kind()) {
    case Kind::Instance: {
      // A user-defined __setattr__ (a Python function) takes over; object's own is instance_store.
      Obj custom = o.as<InstanceObj>()->get_class().lookup("__setattr__");
      if (custom.kind() == Kind::Function) {
        Obj f = special_method(in, o, "__setattr__");
        Obj args[] = {make_str(name), value};
        in.call(f, args);
        return;
      }
      instance_store(in, o, name, std::move(value));
      return;
    }
    case Kind::Class:
      o.as<ClassObj>()->attrs.set(std::string_view(name), std::move(value));
      ++g_class_epoch;  // invalidates the VM's attribute caches
      return;
    case Kind::Module: o.as<ModuleObj>()->attrs.set(std::string_view(name), std::move(value)); return;
    case Kind::Tensor: tensor_setattr(in, o, name, std::move(value)); return;
    case Kind::Tuple:  // a tuple subclass's instances have no __dict__ (a namedtuple's __slots__ = ())
      if (auto* c = o.as<TupleObj>()->cls.as<ClassObj>(); c && property_store(in, *c, o, name, value)) return;
      break;
    case Kind::Function:
      if (function_setattr(o, name, value)) return;
      throw Error(detail::cat("readonly attribute '", name, "'"), ErrorKind::Attribute);
    default: break;
  }
  if (!builtin_method(in, o, name).is_null())
    throw Error(detail::cat("'", type_name(o), "' object attribute '", name, "' is read-only"), ErrorKind::Attribute);
  no_attribute(o, name);
}

void delattr(Interp& in, const Obj& o, const std::string& name) {
  OrderedMap* attrs = nullptr;
  if (auto* i = o.as<InstanceObj>()) attrs = &i->attrs;
  else if (auto* c = o.as<ClassObj>()) attrs = &c->attrs;
  else if (auto* m = o.as<ModuleObj>()) attrs = &m->attrs;
  else if (auto* t = o.as<TensorObj>()) attrs = &t->attrs;
  if (o.kind() == Kind::Instance) {
    Obj custom = o.as<InstanceObj>()->get_class().lookup("__delattr__");
    if (custom.kind() == Kind::Function) {
      Obj n = make_str(name);
      in.call(special_method(in, o, "__delattr__"), {&n, 1});
      return;
    }
  }
  if (o.kind() == Kind::Class) ++g_class_epoch;
  if (o.kind() == Kind::Instance || o.kind() == Kind::Tuple) {  // a property's deleter
    Obj cls = type_of(in, o);
    if (auto* p = cls.as<ClassObj>()->lookup(name).as<PropertyObj>()) {
      if (p->fdel.is_none() || p->fdel.is_null())
        throw Error(detail::cat("property '", name, "' of '", cls.as<ClassObj>()->name, "' object has no deleter"),
                    ErrorKind::Attribute);
      in.call(p->fdel, {&o, 1});
      return;
    }
  }
  if (attrs && attrs->erase(make_str(name))) return;
  if (o.kind() == Kind::Function && function_delattr(o, name)) return;
  no_attribute(o, name);
}

}  // namespace kiln::lang

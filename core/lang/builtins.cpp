// The `builtins` module: print, len, range, the built-in type classes (int,
// str, list, ... whose `construct` implements int(x), list(it), ...), the
// exception hierarchy, and the NotImplemented / Ellipsis singletons.
#include "core/lang/builtins.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <iostream>

#include "core/alloc_limit.h"
#include "core/lang/interp.h"
#include "core/lang/iterators.h"
#include "core/lang/objops.h"
#include "core/lang/set_order.h"
#include "core/lang/strformat.h"
#include "core/lang/torch_bridge.h"
#include "core/lang/vm.h"

namespace kiln::lang {

// Non-identifier key: scripts cannot name the table of unnamed built-in types.
static constexpr std::string_view kTypesKey = "<types>";

Obj exception_class_for(Interp& in, ErrorKind k) { return in.exc_class(k); }

Obj find_builtin_class(Interp& in, std::string_view name) {
  Obj v = in.builtin(name);
  if (v.kind() == Kind::Class) return v;
  Obj types = in.builtin(kTypesKey);
  if (auto* m = types.as<ModuleObj>())
    if (Obj* c = m->attrs.find(name)) return *c;
  return Obj::null();
}

// The class of a named result tuple (torch.return_types.max): made on first
// use and kept in the table of unnamed types, so every max result shares it.
Obj return_type_class(Interp& in, std::string_view struct_name) {
  auto* types = in.builtin(kTypesKey).as<ModuleObj>();
  if (!types) return Obj::null();
  if (Obj* c = types->attrs.find(struct_name)) return *c;
  std::string_view short_name = struct_name.substr(struct_name.rfind('.') + 1);
  auto* c = new ClassObj(std::string(short_name));
  Obj cls(c);
  c->set_base(find_builtin_class(in, "tuple"));
  c->native_kind = Kind::Tuple;
  c->attrs.set("__module__", make_str(std::string(struct_name.substr(0, struct_name.rfind('.')))));
  types->attrs.set(struct_name, cls);
  return cls;
}

Obj not_implemented(Interp& in) { return in.builtin("NotImplemented"); }
Obj ellipsis(Interp& in) { return in.builtin("Ellipsis"); }

Obj new_exception_with_args(Interp& in, const Obj& cls, std::vector<Obj> args) { return in.call(cls, args); }

void raise_exception(Interp& in, const Obj& cls, std::vector<Obj> args) {
  throw ScriptException{new_exception_with_args(in, cls, std::move(args)), {}};
}

void check_alloc(Interp& in, uint64_t count, uint64_t item_bytes) {
  uint64_t bytes = 0;
  if (__builtin_mul_overflow(count, item_bytes, &bytes) || bytes > kiln::alloc_limit())
    raise_exception(in, find_builtin_class(in, "MemoryError"), {});
}

namespace {

// ---- helpers ---------------------------------------------------------------------------------
Obj tensor_item(Interp& in, const Obj& t) { return in.call(getattr(in, t, "item"), {}); }
// int(t) / float(t): PyTorch's __int__/__float__ reject other sizes with a ValueError (item() a RuntimeError).
Obj tensor_number(Interp& in, const Obj& t) {
  KILN_CHECK(t.as<TensorObj>()->tensor.numel() == 1, Value, "only one element tensors can be converted to Python scalars");
  return tensor_item(in, t);
}

std::string trim(std::string_view s) {
  size_t a = 0, b = s.size();
  while (a < b && std::isspace(static_cast<unsigned char>(s[a]))) ++a;
  while (b > a && std::isspace(static_cast<unsigned char>(s[b - 1]))) --b;
  return std::string(s.substr(a, b - a));
}

// Python int literal syntax for int(str, base): sign, optional prefix, digits with single underscores.
bool parse_int(std::string_view text, int base, int64_t& out) {
  std::string s = trim(text);
  size_t i = 0;
  bool neg = false;
  if (i < s.size() && (s[i] == '+' || s[i] == '-')) neg = s[i++] == '-';
  auto prefix = [&](char p) {
    return i + 1 < s.size() && s[i] == '0' && std::tolower(static_cast<unsigned char>(s[i + 1])) == p;
  };
  if (base == 0) {
    base = prefix('x') ? 16 : prefix('o') ? 8 : prefix('b') ? 2 : 10;
    if (base != 10) i += 2;
    else if (s.size() - i > 1 && s[i] == '0' && s.find_first_not_of("0_", i) != std::string::npos) return false;
  } else if ((base == 16 && prefix('x')) || (base == 8 && prefix('o')) || (base == 2 && prefix('b'))) {
    i += 2;
    if (i < s.size() && s[i] == '_') ++i;
  }
  if (i >= s.size()) return false;
  unsigned __int128 v = 0;
  bool prev_digit = false;
  for (; i < s.size(); ++i) {
    char c = s[i];
    if (c == '_') {
      if (!prev_digit) return false;
      prev_digit = false;
      continue;
    }
    int d = std::isdigit(static_cast<unsigned char>(c)) ? c - '0'
            : std::isalpha(static_cast<unsigned char>(c)) ? std::tolower(static_cast<unsigned char>(c)) - 'a' + 10
                                                           : 99;
    if (d >= base) return false;
    v = v * unsigned(base) + unsigned(d);
    if (v > (unsigned __int128)(uint64_t(1) << 63)) throw Error("integer overflow (kiln ints are 64-bit)", ErrorKind::Overflow);
    prev_digit = true;
  }
  if (!prev_digit) return false;
  if (!neg && v == (unsigned __int128)(uint64_t(1) << 63)) throw Error("integer overflow (kiln ints are 64-bit)", ErrorKind::Overflow);
  out = neg ? int64_t(0 - uint64_t(v)) : int64_t(uint64_t(v));
  return true;
}

int64_t float_to_int(double d) {
  KILN_CHECK(!std::isinf(d), Overflow, "cannot convert float infinity to integer");
  KILN_CHECK(!std::isnan(d), Value, "cannot convert float NaN to integer");
  double t = std::trunc(d);
  KILN_CHECK(t >= -9223372036854775808.0 && t < 9223372036854775808.0, Overflow,
             "integer overflow (kiln ints are 64-bit)");
  return int64_t(t);
}

bool parse_float(std::string_view text, double& out) {
  std::string s = trim(text);
  std::string clean;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '_') {
      if (i == 0 || i + 1 == s.size() || !std::isdigit(static_cast<unsigned char>(s[i - 1])) ||
          !std::isdigit(static_cast<unsigned char>(s[i + 1])))
        return false;
      continue;
    }
    clean += s[i];
  }
  if (clean.empty()) return false;
  std::string lower;
  for (char c : clean) lower += char(std::tolower(static_cast<unsigned char>(c)));
  size_t sign = lower[0] == '+' || lower[0] == '-' ? 1 : 0;
  std::string body = lower.substr(sign);
  double sgn = sign && lower[0] == '-' ? -1.0 : 1.0;
  if (body == "inf" || body == "infinity") return out = sgn * INFINITY, true;
  if (body == "nan") return out = std::copysign(NAN, sgn), true;
  if (body.find_first_not_of("0123456789.e+-") != std::string::npos) return false;
  char* end = nullptr;
  out = std::strtod(clean.c_str(), &end);
  return end == clean.c_str() + clean.size();
}

// ---- type constructors --------------------------------------------------------------------------
Obj int_construct(Interp& in, const CallArgs& a) {
  a.check("int", 0, 2, "base");
  if (a.pos.empty() && !a.find_kw("base")) return Obj::from_int(0);
  Obj x = a.arg(0, "x", Obj::from_int(0));
  Obj base_obj = a.arg(1, "base");
  if (!base_obj.is_none()) {
    auto* s = x.as<StrObj>();
    KILN_CHECK(s, Type, "int() can't convert non-string with explicit base");
    int64_t base = to_index(in, base_obj, "an integer");
    KILN_CHECK(base == 0 || (base >= 2 && base <= 36), Value, "int() base must be >= 2 and <= 36, or 0");
    int64_t v;
    if (!parse_int(s->value, int(base), v))
      throw Error(detail::cat("invalid literal for int() with base ", base, ": ", repr(in, x)), ErrorKind::Value);
    return Obj::from_int(v);
  }
  switch (x.kind()) {
    case Kind::Int: case Kind::Bool: return Obj::from_int(x.as_int());
    case Kind::Float: return Obj::from_int(float_to_int(x.as_float()));
    case Kind::Str: {
      int64_t v;
      if (!parse_int(x.as<StrObj>()->value, 10, v))
        throw Error("invalid literal for int() with base 10: " + repr(in, x), ErrorKind::Value);
      return Obj::from_int(v);
    }
    case Kind::Tensor: {
      Obj item[] = {tensor_number(in, x)};
      return int_construct(in, CallArgs{item, {}, Obj::null()});
    }
    case Kind::Instance:
      for (const char* name : {"__int__", "__index__", "__trunc__"}) {
        Obj f = special_method(in, x, name);
        if (!f.is_null()) return in.call(f, {});
      }
      break;
    default: break;
  }
  throw Error("int() argument must be a string, a bytes-like object or a real number, not '" + type_name(x) + "'",
              ErrorKind::Type);
}

Obj float_construct(Interp& in, const CallArgs& a) {
  a.check("float", 0, 1);
  if (a.pos.empty()) return Obj::from_float(0);
  const Obj& x = a.pos[0];
  switch (x.kind()) {
    case Kind::Int: case Kind::Bool: case Kind::Float: return Obj::from_float(x.as_number());
    case Kind::Str: {
      double d;
      if (!parse_float(x.as<StrObj>()->value, d))
        throw Error("could not convert string to float: " + repr(in, x), ErrorKind::Value);
      return Obj::from_float(d);
    }
    case Kind::Tensor: return Obj::from_float(tensor_number(in, x).as_number());
    case Kind::Instance: {
      Obj f = special_method(in, x, "__float__");
      if (!f.is_null()) return in.call(f, {});
      f = special_method(in, x, "__index__");
      if (!f.is_null()) return Obj::from_float(in.call(f, {}).as_number());
      break;
    }
    default: break;
  }
  throw Error("float() argument must be a string or a real number, not '" + type_name(x) + "'", ErrorKind::Type);
}

// float.fromhex(s): a hexadecimal float literal, with or without the 0x
// prefix (C's strtod reads the same syntax once the prefix is there).
Obj float_fromhex(Interp&, const CallArgs& a) {
  a.check("fromhex", 1, 1);
  std::string s = trim(str_of(a.pos[0], "fromhex() argument"));
  size_t sign = s.empty() || (s[0] != '+' && s[0] != '-') ? 0 : 1;
  std::string body = s.substr(sign);
  std::string lower = body;
  for (char& c : lower) c = char(std::tolower(static_cast<unsigned char>(c)));
  bool special = lower == "inf" || lower == "infinity" || lower == "nan";
  if (!special && !lower.starts_with("0x")) s.insert(sign, "0x");
  char* end = nullptr;
  double d = s.empty() ? 0 : std::strtod(s.c_str(), &end);
  if (s.empty() || end != s.c_str() + s.size()) throw Error("invalid hexadecimal floating-point string", ErrorKind::Value);
  if (!special && std::isinf(d)) throw Error("hexadecimal value too large to represent as a float", ErrorKind::Overflow);
  return Obj::from_float(d);
}

Obj bool_construct(Interp& in, const CallArgs& a) {
  a.check("bool", 0, 1);
  return Obj::from_bool(!a.pos.empty() && truthy(in, a.pos[0]));
}

Obj str_construct(Interp& in, const CallArgs& a) {
  a.check("str", 0, 3, "object encoding errors");
  Obj enc = a.arg(1, "encoding"), errors = a.arg(2, "errors");
  Obj o = a.arg(0, "object", make_str(""));
  if (enc.is_none() && errors.is_none()) return make_str(str(in, o));
  // str(b, encoding, errors) decodes bytes.
  auto* b = o.as<BytesObj>();
  if (!b) throw Error("decoding to str: need a bytes-like object, " + type_name(o) + " found", ErrorKind::Type);
  return make_str(decode_bytes(in, b->value, enc.is_none() ? "utf-8" : str_of(enc, "encoding"),
                               errors.is_none() ? "strict" : str_of(errors, "errors")));
}

Obj list_construct(Interp& in, const CallArgs& a) {
  a.check("list", 0, 1);
  std::vector<Obj> v;
  if (!a.pos.empty()) extend_from_iterable(in, v, a.pos[0]);
  return make_list(std::move(v));
}

Obj tuple_construct(Interp& in, const CallArgs& a) {
  a.check("tuple", 0, 1);
  if (const TupleObj* t = a.pos.empty() ? nullptr : a.pos[0].as<TupleObj>())  // a plain tuple is itself
    if (!t->is_size && t->cls.kind() != Kind::Class && t->struct_name.empty()) return a.pos[0];
  std::vector<Obj> v;
  if (!a.pos.empty()) extend_from_iterable(in, v, a.pos[0]);
  return make_tuple(std::move(v));
}

Obj dict_construct(Interp& in, const CallArgs& a) {
  KILN_CHECK(a.pos.size() <= 1, Type, "dict expected at most 1 argument, got ", a.pos.size());
  Obj d = make<DictObj>();
  dict_update_from(in, d.as<DictObj>()->map, a.pos.empty() ? Obj::null() : a.pos[0], a.kw);
  return d;
}

// collections.OrderedDict(...): a dict that prints and types as one.
Obj odict_construct(Interp& in, const CallArgs& a) {
  KILN_CHECK(a.pos.size() <= 1, Type, "OrderedDict expected at most 1 arguments, got ", a.pos.size());
  Obj d = dict_construct(in, a);
  d.as<DictObj>()->ordered = true;
  return d;
}

Obj set_construct(Interp& in, const CallArgs& a) {
  a.check("set", 0, 1);
  Obj s = make<SetObj>();
  if (!a.pos.empty()) set_add_all(in, *s.as<SetObj>(), a.pos[0]);
  return s;
}

Obj frozenset_construct(Interp& in, const CallArgs& a) {
  a.check("frozenset", 0, 1);
  Obj s = make<SetObj>();
  s.as<SetObj>()->frozen = true;
  if (!a.pos.empty()) set_add_all(in, *s.as<SetObj>(), a.pos[0]);
  return s;
}

Obj range_construct(Interp& in, const CallArgs& a) {
  KILN_CHECK(!a.pos.empty(), Type, "range expected at least 1 argument, got 0");
  KILN_CHECK(a.pos.size() <= 3, Type, "range expected at most 3 arguments, got ", a.pos.size());
  a.check("range", 1, 3);
  auto idx = [&](size_t i) { return to_index(in, a.pos[i], "an integer"); };
  int64_t start = 0, stop, step = 1;
  if (a.pos.size() == 1) {
    stop = idx(0);
  } else {
    start = idx(0), stop = idx(1);
    if (a.pos.size() == 3) step = idx(2);
  }
  KILN_CHECK(step != 0, Value, "range() arg 3 must not be zero");
  return make<RangeObj>(start, stop, step);
}

Obj slice_construct(Interp&, const CallArgs& a) {
  a.check("slice", 1, 3);
  if (a.pos.size() == 1) return make<SliceObj>(Obj(), a.pos[0], Obj());
  return make<SliceObj>(a.pos[0], a.pos[1], a.pos.size() == 3 ? a.pos[2] : Obj());
}

Obj type_construct(Interp& in, const CallArgs& a) {
  KILN_CHECK(a.pos.size() == 1 || a.pos.size() == 3, Type, "type() takes 1 or 3 arguments");
  return a.pos.size() == 1 ? type_of(in, a.pos[0]) : type_new(in, a);
}

Obj property_construct(Interp&, const CallArgs& a) {
  a.check("property", 0, 4, "fget fset fdel doc");
  return make<PropertyObj>(a.arg(0, "fget"), a.arg(1, "fset"), a.arg(2, "fdel"), a.arg(3, "doc"));
}

Obj staticmethod_construct(Interp&, const CallArgs& a) {
  a.check("staticmethod", 1, 1);
  return make<StaticMethodObj>(a.pos[0]);
}

Obj classmethod_construct(Interp&, const CallArgs& a) {
  a.check("classmethod", 1, 1);
  return make<ClassMethodObj>(a.pos[0]);
}

// torch.Size(iterable of ints): a tuple that prints as torch.Size([..]).
Obj size_construct(Interp& in, const CallArgs& a) {
  a.check("Size", 0, 1);
  std::vector<Obj> items;
  if (!a.pos.empty()) extend_from_iterable(in, items, a.pos[0]);
  for (size_t i = 0; i < items.size(); ++i)
    if (!items[i].is_int())
      throw Error(detail::cat("torch.Size() takes an iterable of 'int' (item ", i, " is '", type_name(items[i]), "')"),
                  ErrorKind::Type);
  return Obj(new TupleObj(std::move(items), true));
}

// dict.fromkeys(iterable, value=None), reached through the dict class.
Obj dict_fromkeys(Interp& in, const CallArgs& a) {
  a.check("fromkeys", 1, 2);
  Obj d = make<DictObj>();
  std::vector<Obj> keys;
  extend_from_iterable(in, keys, a.pos[0]);
  Obj v = a.pos.size() > 1 ? a.pos[1] : Obj();
  for (const Obj& k : keys) d.as<DictObj>()->map.set(k, v);
  return d;
}

// ---- functions ----------------------------------------------------------------------------------
void write_to(Interp& in, const Obj& file, const std::string& s, bool flush) {
  if (file.is_none() || file.is_null()) {
    in.out() << s;
    if (flush) in.out().flush();
    return;
  }
  // sys.stdout / sys.stderr carry their stream number; anything else needs write().
  if (auto* inst = file.as<InstanceObj>())
    if (Obj* fd = inst->attrs.find(std::string_view("__fd__"))) {
      std::ostream& os = fd->as_int() == 2 ? std::cerr : in.out();
      os << s;
      if (flush) os.flush();
      return;
    }
  Obj text = make_str(s);
  in.call(getattr(in, file, "write"), {&text, 1});
}

Obj builtin_print(Interp& in, const CallArgs& a) {
  a.check("print", 0, size_t(-1), "sep end file flush");
  Obj sep = a.arg(size_t(-1), "sep"), end = a.arg(size_t(-1), "end");
  KILN_CHECK(sep.is_none() || sep.kind() == Kind::Str, Type, "sep must be None or a string, not ", type_name(sep));
  KILN_CHECK(end.is_none() || end.kind() == Kind::Str, Type, "end must be None or a string, not ", type_name(end));
  std::string s;
  for (size_t i = 0; i < a.pos.size(); ++i) {
    if (i) s += sep.is_none() ? " " : sep.as<StrObj>()->value;
    s += str(in, a.pos[i]);
  }
  s += end.is_none() ? "\n" : end.as<StrObj>()->value;
  write_to(in, a.arg(size_t(-1), "file"), s, truthy(in, a.arg(size_t(-1), "flush", Obj::from_bool(false))));
  return Obj();
}

Obj builtin_len(Interp& in, const CallArgs& a) {
  a.check("len", 1, 1);
  return Obj::from_int(len(in, a.pos[0]));
}

Obj builtin_repr(Interp& in, const CallArgs& a) {
  a.check("repr", 1, 1);
  return make_str(repr(in, a.pos[0]));
}

Obj builtin_abs(Interp& in, const CallArgs& a) {
  a.check("abs", 1, 1);
  const Obj& x = a.pos[0];
  if (x.is_intlike()) {
    KILN_CHECK(x.as_int() != INT64_MIN, Overflow, "integer overflow (kiln ints are 64-bit)");
    return Obj::from_int(std::abs(x.as_int()));
  }
  if (x.is_float()) return Obj::from_float(std::fabs(x.as_float()));
  if (x.kind() == Kind::Tensor) return call_torch_op(in, "abs", CallArgs{a.pos, {}, Obj::null()});
  if (x.kind() == Kind::Instance) {
    Obj f = special_method(in, x, "__abs__");
    if (!f.is_null()) return in.call(f, {});
  }
  throw Error("bad operand type for abs(): '" + type_name(x) + "'", ErrorKind::Type);
}

// min/max: one iterable or several arguments; key=, default=.
Obj min_max(Interp& in, const CallArgs& a, const char* fn, CmpOpKind op) {
  a.check(fn, 0, size_t(-1), "key default");
  if (a.pos.empty()) throw Error(detail::cat(fn, " expected at least 1 argument, got 0"), ErrorKind::Type);
  std::vector<Obj> items;
  if (a.pos.size() == 1) extend_from_iterable(in, items, a.pos[0]);
  else items.assign(a.pos.begin(), a.pos.end());
  const Obj* def = a.find_kw("default");
  KILN_CHECK(!def || a.pos.size() == 1, Type, "Cannot specify a default for ", fn, "() with multiple positional arguments");
  if (items.empty()) {
    if (def) return *def;
    throw Error(detail::cat(fn, "() arg is an empty sequence"), ErrorKind::Value);
  }
  Obj key = a.arg(size_t(-1), "key");
  auto keyed = [&](const Obj& x) { return key.is_none() ? x : in.call(key, {&x, 1}); };
  Obj best = items[0], best_key = keyed(items[0]);
  for (size_t i = 1; i < items.size(); ++i) {
    Obj k = keyed(items[i]);
    if (truthy(in, compare(in, op, k, best_key))) best = items[i], best_key = k;
  }
  return best;
}
Obj builtin_min(Interp& in, const CallArgs& a) { return min_max(in, a, "min", CmpOpKind::Lt); }
Obj builtin_max(Interp& in, const CallArgs& a) { return min_max(in, a, "max", CmpOpKind::Gt); }

Obj builtin_sum(Interp& in, const CallArgs& a) {
  a.check("sum", 1, 2, "start");
  Obj total = a.arg(1, "start", Obj::from_int(0));
  KILN_CHECK(total.kind() != Kind::Str, Type, "sum() can't sum strings [use ''.join(seq) instead]");
  Obj it = iter(in, a.pos[0]);
  Obj x;
  while (iter_next(in, it, x)) {
    if (total.is_int() && x.is_int()) {
      int64_t r;
      if (__builtin_add_overflow(total.as_int(), x.as_int(), &r))
        throw Error("integer overflow (kiln ints are 64-bit)", ErrorKind::Overflow);
      total = Obj::from_int(r);
    } else if (total.is_float() && x.is_number()) {
      total = Obj::from_float(total.as_float() + x.as_number());
    } else {
      total = binary_op(in, BinOpKind::Add, total, x);
    }
  }
  return total;
}

// Python rounds halves to even, on the exact binary value (round(2.675, 2) == 2.67).
double round_digits(double x, int64_t nd) {
  if (!std::isfinite(x) || nd > 330) return x;
  if (nd >= 0) {
    char buf[400];
    std::snprintf(buf, sizeof buf, "%.*f", int(nd), x);
    return std::strtod(buf, nullptr);
  }
  if (nd < -330) return std::copysign(0.0, x);
  double p = std::pow(10.0, double(-nd));
  double y = std::nearbyint(x / p) * p;
  return std::isfinite(y) ? y : x;
}

Obj builtin_round(Interp& in, const CallArgs& a) {
  a.check("round", 1, 2, "ndigits");
  const Obj& x = a.pos[0];
  Obj nd = a.arg(1, "ndigits");
  // PyTorch's Tensor has no __round__: round(t) is the TypeError below, not torch.round.
  if (x.kind() == Kind::Instance) {
    Obj f = special_method(in, x, "__round__");
    if (!f.is_null()) return nd.is_none() ? in.call(f, {}) : in.call(f, {&nd, 1});
  }
  if (x.is_intlike()) {
    if (nd.is_none() || to_index(in, nd, "an integer") >= 0) return Obj::from_int(x.as_int());
    int64_t n = -to_index(in, nd, "an integer");
    if (n > 18) return Obj::from_int(0);
    int64_t p = 1;
    for (int64_t i = 0; i < n; ++i) p *= 10;
    int64_t v = x.as_int(), q = v / p, r = v % p;
    if (r < 0) r += p, --q;  // floor division
    if (2 * r > p || (2 * r == p && (q & 1))) ++q;
    int64_t out;
    if (__builtin_mul_overflow(q, p, &out)) throw Error("integer overflow (kiln ints are 64-bit)", ErrorKind::Overflow);
    return Obj::from_int(out);
  }
  if (!x.is_float()) throw Error("type " + type_name(x) + " doesn't define __round__ method", ErrorKind::Type);
  if (nd.is_none()) return Obj::from_int(float_to_int(std::nearbyint(x.as_float())));
  return Obj::from_float(round_digits(x.as_float(), to_index(in, nd, "an integer")));
}

Obj builtin_divmod(Interp& in, const CallArgs& a) {
  a.check("divmod", 2, 2);
  const Obj &x = a.pos[0], &y = a.pos[1];
  KILN_CHECK(!(x.is_number() && y.is_number() && (x.is_float() || y.is_float()) && y.as_number() == 0), ZeroDivision,
             "float divmod()");
  return make_tuple({binary_op(in, BinOpKind::FloorDiv, a.pos[0], a.pos[1]),
                     binary_op(in, BinOpKind::Mod, a.pos[0], a.pos[1])});
}

int64_t mod_pow(int64_t b, int64_t e, int64_t m) {
  KILN_CHECK(m != 0, Value, "pow() 3rd argument cannot be 0");
  int64_t am = m < 0 ? -m : m;
  auto norm = [&](__int128 v) { v %= am; return int64_t(v < 0 ? v + am : v); };
  int64_t base = norm(b);
  if (e < 0) {
    // Modular inverse by the extended Euclidean algorithm.
    __int128 t = 0, nt = 1, r = am, nr = base;
    while (nr != 0) {
      __int128 q = r / nr, tmp = t - q * nt;
      t = nt, nt = tmp, tmp = r - q * nr, r = nr, nr = tmp;
    }
    KILN_CHECK(r == 1, Value, "base is not invertible for the given modulus");
    base = norm(t), e = -e;
  }
  __int128 result = 1 % am, p = base;
  for (; e; e >>= 1) {
    if (e & 1) result = result * p % am;
    p = p * p % am;
  }
  int64_t r = int64_t(result);
  return m < 0 && r != 0 ? r + m : r;
}

Obj builtin_pow(Interp& in, const CallArgs& a) {
  a.check("pow", 2, 3, "base exp mod");
  Obj mod = a.arg(2, "mod");
  if (!mod.is_none() && a.pos[0].kind() == Kind::Instance) {  // a class's three-argument __pow__
    Obj f = special_method(in, a.pos[0], "__pow__");
    Obj args[] = {a.pos[1], mod};
    if (!f.is_null())
      if (Obj r = in.call(f, args); !r.is(not_implemented(in))) return r;
  }
  if (!mod.is_none()) {
    KILN_CHECK(a.pos[0].is_intlike() && a.pos[1].is_intlike() && mod.is_intlike(), Type,
               "pow() 3rd argument not allowed unless all arguments are integers");
    return Obj::from_int(mod_pow(a.pos[0].as_int(), a.pos[1].as_int(), mod.as_int()));
  }
  return binary_op(in, BinOpKind::Pow, a.pos[0], a.pos[1]);
}

Obj base_str(Interp& in, const CallArgs& a, const char* fn, const char* spec) {
  a.check(fn, 1, 1);
  return make_str(format_int(to_index(in, a.pos[0], "an integer"), spec));
}
Obj builtin_hex(Interp& in, const CallArgs& a) { return base_str(in, a, "hex", "#x"); }
Obj builtin_bin(Interp& in, const CallArgs& a) { return base_str(in, a, "bin", "#b"); }
Obj builtin_oct(Interp& in, const CallArgs& a) { return base_str(in, a, "oct", "#o"); }

Obj builtin_ord(Interp&, const CallArgs& a) {
  a.check("ord", 1, 1);
  auto* s = a.pos[0].as<StrObj>();
  if (!s) throw Error("ord() expected string of length 1, but " + type_name(a.pos[0]) + " found", ErrorKind::Type);
  size_t n = utf8_count(s->value);
  if (n != 1)
    throw Error(detail::cat("ord() expected a character, but string of length ", n, " found"), ErrorKind::Type);
  const auto* p = reinterpret_cast<const unsigned char*>(s->value.data());
  uint32_t c = p[0];
  size_t extra = c >= 0xF0 ? 3 : c >= 0xE0 ? 2 : c >= 0xC0 ? 1 : 0;
  if (extra) c &= (0x3F >> extra);
  for (size_t i = 1; i <= extra && i < s->value.size(); ++i) c = (c << 6) | (p[i] & 0x3F);
  return Obj::from_int(c);
}

Obj builtin_chr(Interp& in, const CallArgs& a) {
  a.check("chr", 1, 1);
  int64_t c = to_index(in, a.pos[0], "an integer");
  KILN_CHECK(c >= 0 && c <= 0x10FFFF, Value, "chr() arg not in range(0x110000)");
  return make_str(format_int(c, "c"));
}

Obj builtin_id(Interp&, const CallArgs& a) {
  a.check("id", 1, 1);
  const Obj& o = a.pos[0];
  if (o.is_heap()) return Obj::from_int(int64_t(reinterpret_cast<uintptr_t>(o.heap())));
  return Obj::from_int((int64_t(o.kind()) << 56) ^ o.as_int());
}

Obj builtin_hash(Interp& in, const CallArgs& a) {
  a.check("hash", 1, 1);
  const Obj& o = a.pos[0];
  if (o.kind() == Kind::Instance) {  // a class's __hash__ (None: unhashable, as after defining __eq__ alone)
    Obj f = special_method(in, o, "__hash__");
    if (f.is_none()) throw Error("unhashable type: '" + type_name(o) + "'", ErrorKind::Type);
    if (!f.is_null()) return in.call(f, {});
  }
  if (std::optional<int64_t> h = cpython_hash(o)) return Obj::from_int(*h);  // numbers and tuples of them
  return Obj::from_int(int64_t(ObjHash()(o)));
}

Obj builtin_iter(Interp& in, const CallArgs& a) {
  a.check("iter", 1, 1);
  return iter(in, a.pos[0]);
}

Obj builtin_next(Interp& in, const CallArgs& a) {
  a.check("next", 1, 2);
  const Obj& it = a.pos[0];
  bool ok = it.kind() == Kind::Iterator || (it.kind() == Kind::Instance && !special_method(in, it, "__next__").is_null());
  if (!ok) throw Error("'" + type_name(it) + "' object is not an iterator", ErrorKind::Type);
  Obj out;
  if (iter_next(in, it, out)) return out;
  if (a.pos.size() > 1) return a.pos[1];
  raise_exception(in, exception_class_for(in, ErrorKind::StopIteration), {});
}

Obj builtin_callable(Interp& in, const CallArgs& a) {
  a.check("callable", 1, 1);
  switch (a.pos[0].kind()) {
    case Kind::Function: case Kind::Builtin: case Kind::BoundMethod: case Kind::Class: return Obj::from_bool(true);
    case Kind::Instance: return Obj::from_bool(!special_method(in, a.pos[0], "__call__").is_null());
    default: return Obj::from_bool(false);
  }
}

Obj builtin_format(Interp& in, const CallArgs& a) {
  a.check("format", 1, 2);
  std::string spec = a.pos.size() > 1 ? str_of(a.pos[1], "format() argument 2") : "";
  return make_str(format_value(in, a.pos[0], spec));
}

Obj builtin_isinstance(Interp& in, const CallArgs& a) {
  a.check("isinstance", 2, 2);
  return Obj::from_bool(isinstance(in, a.pos[0], a.pos[1]));
}

bool subclass_of(Interp& in, const ClassObj& c, const Obj& cls_or_tuple) {
  if (auto* t = cls_or_tuple.as<TupleObj>()) {
    for (const Obj& x : t->items)
      if (subclass_of(in, c, x)) return true;
    return false;
  }
  auto* k = cls_or_tuple.as<ClassObj>();
  KILN_CHECK(k, Type, "issubclass() arg 2 must be a class, a tuple of classes, or a union");
  return cls_or_tuple.is(find_builtin_class(in, "object")) || c.is_subclass_of(k);
}

Obj builtin_issubclass(Interp& in, const CallArgs& a) {
  a.check("issubclass", 2, 2);
  auto* c = a.pos[0].as<ClassObj>();
  KILN_CHECK(c, Type, "issubclass() arg 1 must be a class");
  return Obj::from_bool(subclass_of(in, *c, a.pos[1]));
}

const std::string& attr_name(const Obj& o, const char* fn) {
  auto* s = o.as<StrObj>();
  if (!s) throw Error(detail::cat(fn, "(): attribute name must be string, not '", type_name(o), "'"), ErrorKind::Type);
  return s->value;
}

Obj builtin_hasattr(Interp& in, const CallArgs& a) {
  a.check("hasattr", 2, 2);
  Obj out;
  return Obj::from_bool(try_getattr(in, a.pos[0], attr_name(a.pos[1], "hasattr"), out));
}

Obj builtin_getattr(Interp& in, const CallArgs& a) {
  a.check("getattr", 2, 3);
  const std::string& name = attr_name(a.pos[1], "getattr");
  if (a.pos.size() == 2) return getattr(in, a.pos[0], name);
  Obj out;
  return try_getattr(in, a.pos[0], name, out) ? out : a.pos[2];
}

Obj builtin_setattr(Interp& in, const CallArgs& a) {
  a.check("setattr", 3, 3);
  setattr(in, a.pos[0], attr_name(a.pos[1], "setattr"), a.pos[2]);
  return Obj();
}

Obj builtin_delattr(Interp& in, const CallArgs& a) {
  a.check("delattr", 2, 2);
  delattr(in, a.pos[0], attr_name(a.pos[1], "delattr"));
  return Obj();
}

Obj any_all(Interp& in, const CallArgs& a, const char* fn, bool want) {
  a.check(fn, 1, 1);
  Obj it = iter(in, a.pos[0]);
  Obj x;
  while (iter_next(in, it, x))
    if (truthy(in, x) == want) return Obj::from_bool(want);
  return Obj::from_bool(!want);
}
Obj builtin_any(Interp& in, const CallArgs& a) { return any_all(in, a, "any", true); }
Obj builtin_all(Interp& in, const CallArgs& a) { return any_all(in, a, "all", false); }

Obj builtin_sorted(Interp& in, const CallArgs& a) {
  a.check("sorted", 1, 1, "key reverse");
  std::vector<Obj> v;
  extend_from_iterable(in, v, a.pos[0]);
  sort_objs(in, v, a.arg(size_t(-1), "key"), truthy(in, a.arg(size_t(-1), "reverse", Obj::from_bool(false))));
  return make_list(std::move(v));
}

std::vector<Obj> iters_of(Interp& in, std::span<const Obj> xs) {
  std::vector<Obj> its;
  for (const Obj& x : xs) its.push_back(iter(in, x));
  return its;
}

Obj builtin_zip(Interp& in, const CallArgs& a) {
  a.check("zip", 0, size_t(-1), "strict");
  return make_zip_iter(iters_of(in, a.pos));
}

Obj builtin_enumerate(Interp& in, const CallArgs& a) {
  a.check("enumerate", 1, 2, "start");
  return make_enumerate_iter(iter(in, a.pos[0]), to_index(in, a.arg(1, "start", Obj::from_int(0)), "an integer"));
}

Obj builtin_reversed(Interp& in, const CallArgs& a) {
  a.check("reversed", 1, 1);
  return make_reversed_iter(in, a.pos[0]);
}

Obj builtin_map(Interp& in, const CallArgs& a) {
  KILN_CHECK(a.pos.size() >= 2, Type, "map() must have at least two arguments.");
  return make_map_iter(a.pos[0], iters_of(in, a.pos.subspan(1)));
}

Obj builtin_filter(Interp& in, const CallArgs& a) {
  a.check("filter", 2, 2);
  return make_filter_iter(a.pos[0], iter(in, a.pos[1]));
}

Obj builtin_vars(Interp& in, const CallArgs& a) {
  a.check("vars", 1, 1);
  const Obj& o = a.pos[0];
  if (o.kind() == Kind::Instance || o.kind() == Kind::Class || o.kind() == Kind::Function)
    return getattr(in, o, "__dict__");
  OrderedMap* attrs = o.kind() == Kind::Module ? &o.as<ModuleObj>()->attrs : nullptr;
  KILN_CHECK(attrs, Type, "vars() argument must have __dict__ attribute");
  Obj d = make<DictObj>();
  attrs->for_each([&](const Obj& k, const Obj& v) { d.as<DictObj>()->map.set(k, v); });
  return d;
}

// globals(): the calling module's globals, as a dict. A copy: names it defines
// through the dict do not reach the module (CPython's dict is the module's own).
Obj builtin_globals(Interp&, const CallArgs& a) {
  a.check("globals", 0, 0);
  Obj d = make<DictObj>();
  if (const OrderedMap* g = current_frame().globals)
    g->for_each([&](const Obj& k, const Obj& v) { d.as<DictObj>()->map.set(k, v); });
  return d;
}

Obj builtin_dir(Interp& in, const CallArgs& a) {
  a.check("dir", 1, 1);
  const Obj& o = a.pos[0];
  std::vector<Obj> names;
  auto add = [&](const OrderedMap& m) {
    m.for_each([&](const Obj& k, const Obj&) {
      if (k.kind() == Kind::Str && !contains(in, make_list(names), k)) names.push_back(k);
    });
  };
  auto add_class = [&](const ClassObj& c) {
    add(c.attrs);
    for (const Obj& b : c.mro) add(b.as<ClassObj>()->attrs);
  };
  if (auto* i = o.as<InstanceObj>()) {
    add(i->attrs);
    add_class(i->get_class());
  } else if (auto* c = o.as<ClassObj>()) {
    add_class(*c);
  } else if (auto* m = o.as<ModuleObj>()) {
    add(m->attrs);
  }
  sort_objs(in, names, Obj(), false);
  return make_list(std::move(names));
}

Obj unsupported(const char* what) {
  throw Error(detail::cat(what, "() is not supported by kiln"), ErrorKind::NotImplemented);
}
// open() is io.open (prelude/io.py), whose module loads on the first call.
Obj builtin_open(Interp& in, const CallArgs& a) {
  return in.call(getattr(in, in.import_module("io"), "open"), a.pos, a.kw);
}
Obj builtin_input(Interp&, const CallArgs&) { return unsupported("input"); }
Obj builtin_eval(Interp&, const CallArgs&) { return unsupported("eval"); }
Obj builtin_exec(Interp&, const CallArgs&) { return unsupported("exec"); }

// ---- classes ----------------------------------------------------------------------------------
struct ModuleBuilder {
  ModuleObj& mod;
  ModuleObj& types;
  Obj object;

  Obj add_class(const std::string& name, Obj base, Kind native = Kind::Instance, NativeFn construct = nullptr,
                bool named = true) {
    auto* c = new ClassObj(name);
    Obj cls(c);
    c->set_base(base);
    c->native_kind = native;
    c->construct = construct;
    c->attrs.set("__module__", make_str("builtins"));
    if (auto* b = base.as<ClassObj>()) c->is_exception = b->is_exception;
    (named ? mod.attrs : types.attrs).set(std::string_view(name), cls);
    return cls;
  }
  void fn(const char* name, NativeFn f) { mod.attrs.set(std::string_view(name), make_builtin(name, f)); }
};

void add_type_classes(ModuleBuilder& b) {
  b.object = b.add_class("object", Obj());
  Obj obj = b.object;
  Obj int_cls = b.add_class("int", obj, Kind::Int, int_construct);
  b.add_class("bool", int_cls, Kind::Bool, bool_construct);
  Obj float_cls = b.add_class("float", obj, Kind::Float, float_construct);
  float_cls.as<ClassObj>()->attrs.set("fromhex", make_builtin("fromhex", float_fromhex));
  b.add_class("str", obj, Kind::Str, str_construct);
  Obj bytes_cls = b.add_class("bytes", obj, Kind::Bytes, bytes_construct);
  bytes_cls.as<ClassObj>()->attrs.set("fromhex", make_builtin("fromhex", bytes_fromhex));
  int_cls.as<ClassObj>()->attrs.set("from_bytes", make_builtin("from_bytes", int_from_bytes));
  b.add_class("list", obj, Kind::List, list_construct);
  Obj tuple = b.add_class("tuple", obj, Kind::Tuple, tuple_construct);
  Obj size = b.add_class("Size", tuple, Kind::Tuple, size_construct, false);
  size.as<ClassObj>()->attrs.set("__module__", make_str("torch"));
  Obj dict = b.add_class("dict", obj, Kind::Dict, dict_construct);
  dict.as<ClassObj>()->attrs.set("fromkeys", make_builtin("fromkeys", dict_fromkeys));
  Obj odict = b.add_class("OrderedDict", dict, Kind::Dict, odict_construct, false);  // collections.OrderedDict
  odict.as<ClassObj>()->attrs.set("__module__", make_str("collections"));
  for (const char* view : {"dict_keys", "dict_values", "dict_items", "odict_keys", "odict_values", "odict_items"})
    b.add_class(view, obj, Kind::DictView, nullptr, false);
  b.add_class("set", obj, Kind::Set, set_construct);
  b.add_class("frozenset", obj, Kind::Set, frozenset_construct);
  b.add_class("range", obj, Kind::Range, range_construct);
  b.add_class("slice", obj, Kind::Slice, slice_construct);
  b.add_class("type", obj, Kind::Class, type_construct);
  b.add_class("property", obj, Kind::Property, property_construct);
  b.add_class("staticmethod", obj, Kind::StaticMethod, staticmethod_construct);
  b.add_class("classmethod", obj, Kind::ClassMethod, classmethod_construct);
  // Types without a builtin name (type(None), type(len), ...).
  b.add_class("NoneType", obj, Kind::None, nullptr, false);
  b.add_class("function", obj, Kind::Function, nullptr, false);
  b.add_class("builtin_function_or_method", obj, Kind::Builtin, nullptr, false);
  b.add_class("method", obj, Kind::BoundMethod, nullptr, false);
  b.add_class("module", obj, Kind::Module, nullptr, false);
  b.add_class("iterator", obj, Kind::Iterator, nullptr, false);
  b.add_class("generator", obj, Kind::Iterator, nullptr, false);  // type(g) for a generator (objops.cpp)
  b.add_class("cell", obj, Kind::Cell, nullptr, false);
  b.add_class("code", obj, Kind::Code, nullptr, false);
  b.add_class("Tensor", obj, Kind::Tensor, nullptr, false);
  b.add_class("dtype", obj, Kind::DType, nullptr, false);
  b.add_class("device", obj, Kind::Device, nullptr, false);
  Obj ni = b.add_class("NotImplementedType", obj, Kind::Instance, nullptr, false);
  Obj el = b.add_class("ellipsis", obj, Kind::Instance, nullptr, false);
  b.mod.attrs.set("NotImplemented", make<InstanceObj>(ni));
  b.mod.attrs.set("Ellipsis", make<InstanceObj>(el));
}

// The exception hierarchy, parents before children.
void add_exception_classes(ModuleBuilder& b) {
  static const char* const kTree[][2] = {
      {"BaseException", nullptr},         {"SystemExit", "BaseException"},
      {"KeyboardInterrupt", "BaseException"}, {"Exception", "BaseException"},
      {"ArithmeticError", "Exception"},   {"ZeroDivisionError", "ArithmeticError"},
      {"OverflowError", "ArithmeticError"}, {"FloatingPointError", "ArithmeticError"},
      {"LookupError", "Exception"},       {"IndexError", "LookupError"},
      {"KeyError", "LookupError"},        {"ValueError", "Exception"},
      {"TypeError", "Exception"},         {"NameError", "Exception"},
      {"UnboundLocalError", "NameError"}, {"AttributeError", "Exception"},
      {"RuntimeError", "Exception"},      {"NotImplementedError", "RuntimeError"},
      {"RecursionError", "RuntimeError"}, {"AssertionError", "Exception"},
      {"StopIteration", "Exception"},     {"ImportError", "Exception"},
      {"MemoryError", "Exception"},       {"OSError", "Exception"},
      {"FileNotFoundError", "OSError"},   {"PermissionError", "OSError"},
      {"ModuleNotFoundError", "ImportError"}, {"SyntaxError", "Exception"},
      {"Warning", "Exception"},           {"UserWarning", "Warning"},
      {"DeprecationWarning", "Warning"},  {"PendingDeprecationWarning", "Warning"},
      {"FutureWarning", "Warning"},       {"RuntimeWarning", "Warning"},
      {"SyntaxWarning", "Warning"},       {"ImportWarning", "Warning"},
      {"ResourceWarning", "Warning"},     {"UnicodeWarning", "Warning"},
      {"FileExistsError", "OSError"},     {"IsADirectoryError", "OSError"},
      {"NotADirectoryError", "OSError"}, {"UnicodeError", "ValueError"},
      {"UnicodeDecodeError", "UnicodeError"}, {"UnicodeEncodeError", "UnicodeError"},
  };
  for (const auto& [name, parent] : kTree) {
    Obj base = parent ? *b.mod.attrs.find(std::string_view(parent)) : b.object;
    Obj c = b.add_class(name, base);
    c.as<ClassObj>()->is_exception = true;
  }
}

void add_functions(ModuleBuilder& b) {
  b.fn("print", builtin_print);
  b.fn("len", builtin_len);
  b.fn("repr", builtin_repr);
  b.fn("abs", builtin_abs);
  b.fn("min", builtin_min);
  b.fn("max", builtin_max);
  b.fn("sum", builtin_sum);
  b.fn("round", builtin_round);
  b.fn("divmod", builtin_divmod);
  b.fn("pow", builtin_pow);
  b.fn("hex", builtin_hex);
  b.fn("bin", builtin_bin);
  b.fn("oct", builtin_oct);
  b.fn("ord", builtin_ord);
  b.fn("chr", builtin_chr);
  b.fn("id", builtin_id);
  b.fn("hash", builtin_hash);
  b.fn("iter", builtin_iter);
  b.fn("next", builtin_next);
  b.fn("callable", builtin_callable);
  b.fn("format", builtin_format);
  b.fn("isinstance", builtin_isinstance);
  b.fn("issubclass", builtin_issubclass);
  b.fn("hasattr", builtin_hasattr);
  b.fn("getattr", builtin_getattr);
  b.fn("setattr", builtin_setattr);
  b.fn("delattr", builtin_delattr);
  b.fn("any", builtin_any);
  b.fn("all", builtin_all);
  b.fn("sorted", builtin_sorted);
  b.fn("zip", builtin_zip);
  b.fn("enumerate", builtin_enumerate);
  b.fn("reversed", builtin_reversed);
  b.fn("map", builtin_map);
  b.fn("filter", builtin_filter);
  b.fn("vars", builtin_vars);
  b.fn("globals", builtin_globals);
  b.fn("dir", builtin_dir);
  b.fn("open", builtin_open);
  b.fn("input", builtin_input);
  b.fn("eval", builtin_eval);
  b.fn("exec", builtin_exec);
}

}  // namespace

Obj make_builtins_module(Interp&) {
  Obj mod = make<ModuleObj>("builtins");
  Obj types = make<ModuleObj>("<types>");
  ModuleBuilder b{*mod.as<ModuleObj>(), *types.as<ModuleObj>(), Obj()};
  add_type_classes(b);
  add_exception_classes(b);
  add_functions(b);
  b.mod.attrs.set("__name__", make_str("builtins"));
  b.mod.attrs.set(kTypesKey, types);
  return mod;
}

}  // namespace kiln::lang

#include "core/lang/str_translate.h"

#include <string>
#include <vector>

#include "core/lang/interp.h"
#include "core/lang/iterators.h"
#include "core/lang/objops.h"
#include "core/lang/strformat.h"

namespace kiln::lang {
namespace {

// TypeError "str.NAME() takes exactly one argument (N given)", as CPython's METH_O methods say.
void check_one_arg(const CallArgs& a, const char* name) {
  KILN_CHECK(a.kw.empty(), Type, "str.", name, "() takes no keyword arguments");
  KILN_CHECK(a.pos.size() == 1, Type, "str.", name, "() takes exactly one argument (", a.pos.size(), " given)");
}

const std::string& str_arg(const Obj& o, int index) {
  auto* s = o.as<StrObj>();
  KILN_CHECK(s, Type, "maketrans() argument ", index, " must be str, not ", type_name(o));
  return s->value;
}

// maketrans(dict): str keys (one character) become their code points.
Obj maketrans_from_dict(const Obj& x) {
  auto* d = x.as<DictObj>();
  KILN_CHECK(d, Type, "if you give only one argument to maketrans it must be a dict");
  Obj out = make<DictObj>();
  OrderedMap& m = out.as<DictObj>()->map;
  d->map.for_each([&](const Obj& k, const Obj& v) {
    if (auto* s = k.as<StrObj>()) {
      const std::vector<uint32_t> cps = utf8_code_points(s->value);
      KILN_CHECK(cps.size() == 1, Value, "string keys in translate table must be of length 1");
      m.set(Obj::from_int(int64_t(cps[0])), v);
      return;
    }
    KILN_CHECK(k.kind() == Kind::Int || k.is_bool(), Type, "keys in translate table must be strings or integers");
    m.set(k, v);
  });
  return out;
}

std::string chr_of(uint32_t c) { return format_int(int64_t(c), "c"); }

// The table's entry for code point c; false when the table has none (a LookupError).
bool translate_lookup(Interp& in, const Obj& table, uint32_t c, Obj& out) {
  const Obj key = Obj::from_int(int64_t(c));
  if (auto* d = table.as<DictObj>()) {
    const Obj* v = d->map.find(key);
    if (v) out = *v;
    return v != nullptr;
  }
  try {
    out = getitem(in, table, key);
    return true;
  } catch (const ScriptException& e) {
    if (isinstance(in, e.exc, in.builtin("LookupError"))) return false;
    throw;
  } catch (const Error& e) {
    if (e.kind() == ErrorKind::Key || e.kind() == ErrorKind::Index) return false;
    throw;
  }
}

}  // namespace

// Unicode's Other (Cc, Cf, Cs, Co, Cn) and Separator (Zl, Zp, Zs but ' ')
// characters are not printable; the ranges below are the common ones.
bool printable_code_point(uint32_t c) {
  if (c < 0x7F) return c >= 0x20;
  if (c <= 0xA0 || c == 0xAD || c == 0x61C || c == 0x1680 || c == 0x180E || c == 0x3000 || c == 0xFEFF) return false;
  if ((c >= 0x2000 && c <= 0x200F) || (c >= 0x2028 && c <= 0x202F) || (c >= 0x205F && c <= 0x206F)) return false;
  if ((c >= 0xD800 && c <= 0xF8FF) || (c >= 0xFFF9 && c <= 0xFFFB)) return false;
  return c < 0xE0000;
}

Obj str_maketrans(Interp&, const CallArgs& a) {
  KILN_CHECK(a.kw.empty(), Type, "maketrans() takes no keyword arguments");
  KILN_CHECK(!a.pos.empty(), Type, "maketrans expected at least 1 argument, got 0");
  KILN_CHECK(a.pos.size() <= 3, Type, "maketrans expected at most 3 arguments, got ", a.pos.size());
  if (a.pos.size() == 1) return maketrans_from_dict(a.pos[0]);
  KILN_CHECK(a.pos[0].kind() == Kind::Str, Type, "first maketrans argument must be a string if there is a second argument");
  const std::vector<uint32_t> from = utf8_code_points(a.pos[0].as<StrObj>()->value);
  const std::vector<uint32_t> to = utf8_code_points(str_arg(a.pos[1], 2));
  const std::vector<uint32_t> drop = a.pos.size() == 3 ? utf8_code_points(str_arg(a.pos[2], 3)) : std::vector<uint32_t>{};
  KILN_CHECK(from.size() == to.size(), Value, "the first two maketrans arguments must have equal length");
  Obj out = make<DictObj>();
  OrderedMap& m = out.as<DictObj>()->map;
  for (size_t i = 0; i < from.size(); ++i) m.set(Obj::from_int(int64_t(from[i])), Obj::from_int(int64_t(to[i])));
  for (uint32_t c : drop) m.set(Obj::from_int(int64_t(c)), Obj());
  return out;
}

Obj str_translate(Interp& in, const CallArgs& a) {
  check_one_arg(a, "translate");
  std::string out;
  for (uint32_t c : utf8_code_points(a.self.as<StrObj>()->value)) {
    Obj v;
    if (!translate_lookup(in, a.pos[0], c, v)) {
      out += chr_of(c);
    } else if (auto* s = v.as<StrObj>()) {
      out += s->value;
    } else if (v.kind() == Kind::Int || v.is_bool()) {
      const int64_t n = v.as_int();
      KILN_CHECK(n >= 0 && n <= 0x10FFFF, Value, "character mapping must be in range(0x110000)");
      out += chr_of(uint32_t(n));
    } else {
      KILN_CHECK(v.is_none(), Type, "character mapping must return integer, None or str");
    }
  }
  return make_str(std::move(out));
}

Obj str_isprintable(Interp&, const CallArgs& a) {
  KILN_CHECK(a.pos.empty() && a.kw.empty(), Type, "str.isprintable() takes no arguments (", a.pos.size(), " given)");
  for (uint32_t c : utf8_code_points(a.self.as<StrObj>()->value))
    if (!printable_code_point(c)) return Obj::from_bool(false);
  return Obj::from_bool(true);
}

Obj str_format_map(Interp& in, const CallArgs& a) {
  check_one_arg(a, "format_map");
  CallArgs none{};
  return make_str(str_format(in, a.self.as<StrObj>()->value, none, &a.pos[0]));
}

}  // namespace kiln::lang

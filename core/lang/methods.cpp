// Methods of the built-in types (str.join, list.append, dict.get, set.add, ...)
// and the plain data attributes of built-in objects (range.start, slice.stop,
// device.type). One table per kind maps a name to its native function; the
// receiver arrives in CallArgs::self.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <unordered_map>

#include "core/lang/builtins.h"
#include "core/lang/interp.h"
#include "core/lang/iterators.h"
#include "core/lang/function_attrs.h"
#include "core/lang/objops.h"
#include "core/lang/set_order.h"
#include "core/lang/str_translate.h"
#include "core/lang/strformat.h"
#include "core/lang/torch_bridge.h"
#include "core/lang/vm.h"

namespace kiln::lang {

namespace {

using MethodTable = std::unordered_map<std::string_view, NativeFn>;

const std::string& self_str(const CallArgs& a) { return a.self.as<StrObj>()->value; }
std::vector<Obj>& self_list(const CallArgs& a) { return a.self.as<ListObj>()->items; }
OrderedMap& self_dict(const CallArgs& a) { return a.self.as<DictObj>()->map; }
OrderedMap& self_set(const CallArgs& a) { return a.self.as<SetObj>()->map; }

Obj str_list(std::vector<std::string> parts) {
  std::vector<Obj> v;
  v.reserve(parts.size());
  for (auto& p : parts) v.push_back(make_str(std::move(p)));
  return make_list(std::move(v));
}

// ---- str -----------------------------------------------------------------------------
bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'; }

// A str argument, or None (meaning "whitespace"); `fn` names strip-like methods in the error.
const std::string* opt_str(const Obj& o, const char* fn) {
  if (o.is_none()) return nullptr;
  if (auto* s = o.as<StrObj>()) return &s->value;
  if (!fn) throw Error("must be str or None, not " + type_name(o), ErrorKind::Type);
  throw Error(detail::cat(fn, " arg must be None or str"), ErrorKind::Type);
}

// Converts code-point [start, end) arguments to byte offsets of s; false when
// start lies past the end (then even "" is not found there, as in CPython).
bool str_range(Interp& in, const CallArgs& a, size_t first, const std::string& s, size_t& lo, size_t& hi) {
  bool ascii = utf8_count(s) == s.size();
  std::vector<size_t> offs = ascii ? std::vector<size_t>() : utf8_offsets(s);
  int64_t n = ascii ? int64_t(s.size()) : int64_t(offs.size()) - 1;
  auto norm = [&](size_t i, int64_t def) {
    Obj v = a.arg(i, "");
    if (v.is_none()) return def;
    int64_t x = to_index(in, v, "an integer");
    if (x < 0) x = std::max<int64_t>(0, x + n);
    return std::min(x, n);
  };
  Obj raw_start = a.arg(first, "");
  bool past_end = !raw_start.is_none() && to_index(in, raw_start, "an integer") > n;
  int64_t b = norm(first, 0), e = norm(first + 1, n);
  if (e < b) e = b;
  lo = ascii ? size_t(b) : offs[size_t(b)];
  hi = ascii ? size_t(e) : offs[size_t(e)];
  return !past_end;
}

int64_t cp_index(const std::string& s, size_t byte) { return int64_t(utf8_count(std::string_view(s).substr(0, byte))); }

Obj str_split_impl(Interp& in, const CallArgs& a, bool right) {
  a.check(right ? "rsplit" : "split", 0, 2, "sep maxsplit");
  const std::string& s = self_str(a);
  const std::string* sep = opt_str(a.arg(0, "sep"), nullptr);
  int64_t maxsplit = to_index(in, a.arg(1, "maxsplit", Obj::from_int(-1)), "an integer");
  std::vector<std::string> parts;
  if (sep) {
    KILN_CHECK(!sep->empty(), Value, "empty separator");
    if (!right) {
      size_t pos = 0;
      for (int64_t n = 0; maxsplit < 0 || n < maxsplit; ++n) {
        size_t f = s.find(*sep, pos);
        if (f == std::string::npos) break;
        parts.push_back(s.substr(pos, f - pos));
        pos = f + sep->size();
      }
      parts.push_back(s.substr(pos));
    } else {
      size_t end = s.size();
      for (int64_t n = 0; maxsplit < 0 || n < maxsplit; ++n) {
        if (end < sep->size()) break;
        size_t f = s.rfind(*sep, end - sep->size());
        if (f == std::string::npos) break;
        parts.insert(parts.begin(), s.substr(f + sep->size(), end - f - sep->size()));
        end = f;
      }
      parts.insert(parts.begin(), s.substr(0, end));
    }
    return str_list(std::move(parts));
  }
  if (!right) {
    size_t i = 0;
    for (int64_t n = 0;; ++n) {
      while (i < s.size() && is_space(s[i])) ++i;
      if (i == s.size()) break;
      if (maxsplit >= 0 && n == maxsplit) {
        size_t e = s.size();
        while (e > i && is_space(s[e - 1])) --e;
        parts.push_back(s.substr(i, e - i));
        break;
      }
      size_t j = i;
      while (j < s.size() && !is_space(s[j])) ++j;
      parts.push_back(s.substr(i, j - i));
      i = j;
    }
  } else {
    size_t i = s.size();
    for (int64_t n = 0;; ++n) {
      while (i > 0 && is_space(s[i - 1])) --i;
      if (i == 0) break;
      if (maxsplit >= 0 && n == maxsplit) {
        size_t b = 0;
        while (b < i && is_space(s[b])) ++b;
        parts.insert(parts.begin(), s.substr(b, i - b));
        break;
      }
      size_t j = i;
      while (j > 0 && !is_space(s[j - 1])) --j;
      parts.insert(parts.begin(), s.substr(j, i - j));
      i = j;
    }
  }
  return str_list(std::move(parts));
}

Obj str_split(Interp& in, const CallArgs& a) { return str_split_impl(in, a, false); }
Obj str_rsplit(Interp& in, const CallArgs& a) { return str_split_impl(in, a, true); }

Obj str_splitlines(Interp& in, const CallArgs& a) {
  a.check("splitlines", 0, 1, "keepends");
  bool keep = truthy(in, a.arg(0, "keepends", Obj::from_bool(false)));
  const std::string& s = self_str(a);
  std::vector<std::string> parts;
  size_t i = 0;
  while (i < s.size()) {
    size_t j = i;
    while (j < s.size() && s[j] != '\n' && s[j] != '\r') ++j;
    size_t eol = j;
    if (j < s.size()) j += (s[j] == '\r' && j + 1 < s.size() && s[j + 1] == '\n') ? 2 : 1;
    parts.push_back(s.substr(i, (keep ? j : eol) - i));
    i = j;
  }
  return str_list(std::move(parts));
}

Obj strip_impl(const CallArgs& a, const char* fn, bool left, bool right) {
  a.check(fn, 0, 1);
  const std::string& s = self_str(a);
  const std::string* chars = opt_str(a.arg(0, ""), fn);
  auto strip_char = [&](char c) { return chars ? chars->find(c) != std::string::npos : is_space(c); };
  size_t b = 0, e = s.size();
  if (left)
    while (b < e && strip_char(s[b])) ++b;
  if (right)
    while (e > b && strip_char(s[e - 1])) --e;
  return make_str(s.substr(b, e - b));
}
Obj str_strip(Interp&, const CallArgs& a) { return strip_impl(a, "strip", true, true); }
Obj str_lstrip(Interp&, const CallArgs& a) { return strip_impl(a, "lstrip", true, false); }
Obj str_rstrip(Interp&, const CallArgs& a) { return strip_impl(a, "rstrip", false, true); }


// Non-ASCII bytes count as identifier characters: CPython accepts most
// letters of other scripts, and UTF-8 continuation bytes never start a name.
Obj str_isidentifier(Interp&, const CallArgs& a) {
  a.check("isidentifier", 0, 0);
  const std::string& s = self_str(a);
  auto word = [](unsigned char c) { return c == '_' || c >= 0x80 || std::isalnum(c); };
  bool ok = !s.empty() && !std::isdigit(static_cast<unsigned char>(s[0]));
  for (unsigned char c : s) ok = ok && word(c);
  return Obj::from_bool(ok);
}

Obj str_isascii(Interp&, const CallArgs& a) {
  a.check("isascii", 0, 0);
  for (unsigned char c : self_str(a))
    if (c >= 0x80) return Obj::from_bool(false);
  return Obj::from_bool(true);
}

Obj str_expandtabs(Interp& in, const CallArgs& a) {
  a.check("expandtabs", 0, 1);
  int64_t tab = a.pos.empty() ? 8 : to_index(in, a.pos[0], "an integer");
  std::string out;
  int64_t column = 0;
  for (char c : self_str(a)) {
    if (c == '\t') {
      int64_t n = tab > 0 ? tab - column % tab : 0;
      out.append(size_t(n), ' ');
      column += n;
      continue;
    }
    out += c;
    column = c == '\n' || c == '\r' ? 0 : column + ((static_cast<unsigned char>(c) & 0xC0) != 0x80);
  }
  return make_str(std::move(out));
}


Obj affix_impl(Interp& in, const CallArgs& a, const char* fn, bool start) {
  a.check(fn, 1, 3);
  const std::string& s = self_str(a);
  size_t lo, hi;
  if (!str_range(in, a, 1, s, lo, hi)) return Obj::from_bool(false);
  std::string_view sub = std::string_view(s).substr(lo, hi - lo);
  auto test = [&](const Obj& p) {
    auto* ps = p.as<StrObj>();
    if (!ps)
      throw Error(detail::cat(fn, " first arg must be str or a tuple of str, not ", type_name(p)), ErrorKind::Type);
    return start ? sub.starts_with(ps->value) : sub.ends_with(ps->value);
  };
  if (auto* t = a.pos[0].as<TupleObj>()) {
    for (const Obj& p : t->items)
      if (test(p)) return Obj::from_bool(true);
    return Obj::from_bool(false);
  }
  return Obj::from_bool(test(a.pos[0]));
}
Obj str_startswith(Interp& in, const CallArgs& a) { return affix_impl(in, a, "startswith", true); }
Obj str_endswith(Interp& in, const CallArgs& a) { return affix_impl(in, a, "endswith", false); }

// The length of s.replace(from, to, count), computed before building it so a
// replacement that would not fit in memory fails cleanly.
uint64_t replaced_size(const std::string& s, const std::string& from, const std::string& to, int64_t count) {
  uint64_t n = 0;
  if (from.empty()) {
    n = utf8_count(s) + 1;
  } else {
    for (size_t f = s.find(from); f != std::string::npos; f = s.find(from, f + from.size())) ++n;
  }
  if (count >= 0) n = std::min(n, uint64_t(count));
  uint64_t grown = 0;
  if (__builtin_mul_overflow(n, uint64_t(to.size()), &grown)) return UINT64_MAX;
  return s.size() - n * from.size() + grown;
}

Obj str_replace(Interp& in, const CallArgs& a) {
  a.check("replace", 2, 3, "count");
  const std::string& s = self_str(a);
  const std::string& from = str_of(a.pos[0], "replace() argument 1");
  const std::string& to = str_of(a.pos[1], "replace() argument 2");
  int64_t count = to_index(in, a.arg(2, "count", Obj::from_int(-1)), "an integer");
  std::string out;
  check_alloc(in, replaced_size(s, from, to, count), 1);
  if (from.empty()) {
    std::vector<size_t> offs = utf8_offsets(s);
    int64_t n = 0;
    for (size_t i = 0; i + 1 < offs.size(); ++i) {
      if (count < 0 || n < count) out += to, ++n;
      out += s.substr(offs[i], offs[i + 1] - offs[i]);
    }
    if (count < 0 || n < count) out += to;
    return make_str(std::move(out));
  }
  size_t pos = 0;
  for (int64_t n = 0; count < 0 || n < count; ++n) {
    size_t f = s.find(from, pos);
    if (f == std::string::npos) break;
    out.append(s, pos, f - pos).append(to);
    pos = f + from.size();
  }
  out.append(s, pos);
  return make_str(std::move(out));
}

// find / rfind / index / rindex / count share argument handling.
int64_t find_impl(Interp& in, const CallArgs& a, const char* fn, bool reverse) {
  a.check(fn, 1, 3);
  const std::string& s = self_str(a);
  const std::string& sub = str_of(a.pos[0], "must be str");
  size_t lo, hi;
  if (!str_range(in, a, 1, s, lo, hi)) return -1;
  std::string_view view = std::string_view(s).substr(lo, hi - lo);
  size_t f = reverse ? view.rfind(sub) : view.find(sub);
  if (f == std::string_view::npos) return -1;
  return cp_index(s, lo + f);
}
Obj str_find(Interp& in, const CallArgs& a) { return Obj::from_int(find_impl(in, a, "find", false)); }
Obj str_rfind(Interp& in, const CallArgs& a) { return Obj::from_int(find_impl(in, a, "rfind", true)); }
Obj str_index(Interp& in, const CallArgs& a) {
  int64_t i = find_impl(in, a, "index", false);
  KILN_CHECK(i >= 0, Value, "substring not found");
  return Obj::from_int(i);
}
Obj str_rindex(Interp& in, const CallArgs& a) {
  int64_t i = find_impl(in, a, "rindex", true);
  KILN_CHECK(i >= 0, Value, "substring not found");
  return Obj::from_int(i);
}

Obj str_count(Interp& in, const CallArgs& a) {
  a.check("count", 1, 3);
  const std::string& s = self_str(a);
  const std::string& sub = str_of(a.pos[0], "must be str");
  size_t lo, hi;
  if (!str_range(in, a, 1, s, lo, hi)) return Obj::from_int(0);
  std::string_view view = std::string_view(s).substr(lo, hi - lo);
  if (sub.empty()) return Obj::from_int(int64_t(utf8_count(view)) + 1);
  int64_t n = 0;
  for (size_t f = view.find(sub); f != std::string_view::npos; f = view.find(sub, f + sub.size())) ++n;
  return Obj::from_int(n);
}

Obj str_join(Interp& in, const CallArgs& a) {
  a.check("join", 1, 1);
  std::vector<Obj> items;
  extend_from_iterable(in, items, a.pos[0]);
  const std::string& sep = self_str(a);
  std::string out;
  for (size_t i = 0; i < items.size(); ++i) {
    auto* s = items[i].as<StrObj>();
    if (!s)
      throw Error(detail::cat("sequence item ", i, ": expected str instance, ", type_name(items[i]), " found"),
                  ErrorKind::Type);
    check_alloc(in, uint64_t(out.size()) + sep.size() + s->value.size(), 1);
    if (i) out += sep;
    out += s->value;
  }
  return make_str(std::move(out));
}

Obj str_format_method(Interp& in, const CallArgs& a) { return make_str(str_format(in, self_str(a), a)); }

// center / ljust / rjust: fill is one character.
std::string fill_char(const CallArgs& a, const char* fn) {
  Obj f = a.arg(1, "fillchar", make_str(" "));
  auto* s = f.as<StrObj>();
  if (!s || utf8_count(s->value) != 1)
    throw Error(detail::cat(fn, "() argument 2 must be a unicode character, not ", type_name(f)), ErrorKind::Type);
  return s->value;
}

std::string repeat_str(const std::string& s, int64_t n) {
  std::string out;
  for (int64_t i = 0; i < n; ++i) out += s;
  return out;
}

Obj justify(Interp& in, const CallArgs& a, const char* fn, char how) {
  a.check(fn, 1, 2);
  const std::string& s = self_str(a);
  int64_t width = to_index(in, a.pos[0], "an integer");
  std::string fill = fill_char(a, fn);
  int64_t marg = width - int64_t(utf8_count(s));
  if (marg <= 0) return make_str(s);
  check_alloc(in, uint64_t(marg) + s.size(), fill.size());
  int64_t left = how == 'l' ? 0 : how == 'r' ? marg : marg / 2 + (marg & width & 1);
  return make_str(repeat_str(fill, left) + s + repeat_str(fill, marg - left));
}
Obj str_center(Interp& in, const CallArgs& a) { return justify(in, a, "center", 'c'); }
Obj str_ljust(Interp& in, const CallArgs& a) { return justify(in, a, "ljust", 'l'); }
Obj str_rjust(Interp& in, const CallArgs& a) { return justify(in, a, "rjust", 'r'); }

Obj str_zfill(Interp& in, const CallArgs& a) {
  a.check("zfill", 1, 1);
  std::string s = self_str(a);
  int64_t width = to_index(in, a.pos[0], "an integer");
  int64_t pad = width - int64_t(utf8_count(s));
  if (pad <= 0) return make_str(s);
  check_alloc(in, uint64_t(pad) + s.size(), 1);
  size_t at = !s.empty() && (s[0] == '+' || s[0] == '-') ? 1 : 0;
  s.insert(at, size_t(pad), '0');
  return make_str(std::move(s));
}

Obj partition_impl(const CallArgs& a, const char* fn, bool right) {
  a.check(fn, 1, 1);
  const std::string& s = self_str(a);
  const std::string& sep = str_of(a.pos[0], "must be str");
  KILN_CHECK(!sep.empty(), Value, "empty separator");
  size_t f = right ? s.rfind(sep) : s.find(sep);
  if (f == std::string::npos)
    return right ? make_tuple({make_str(""), make_str(""), make_str(s)}) : make_tuple({make_str(s), make_str(""), make_str("")});
  return make_tuple({make_str(s.substr(0, f)), make_str(sep), make_str(s.substr(f + sep.size()))});
}
Obj str_partition(Interp&, const CallArgs& a) { return partition_impl(a, "partition", false); }
Obj str_rpartition(Interp&, const CallArgs& a) { return partition_impl(a, "rpartition", true); }

Obj str_removeprefix(Interp&, const CallArgs& a) {
  a.check("removeprefix", 1, 1);
  const std::string& s = self_str(a);
  const std::string& p = str_of(a.pos[0], "removeprefix() argument");
  return make_str(s.starts_with(p) ? s.substr(p.size()) : s);
}
Obj str_removesuffix(Interp&, const CallArgs& a) {
  a.check("removesuffix", 1, 1);
  const std::string& s = self_str(a);
  const std::string& p = str_of(a.pos[0], "removesuffix() argument");
  return make_str(s.ends_with(p) && !p.empty() ? s.substr(0, s.size() - p.size()) : s);
}

// Latin Extended-A pairs an upper letter with the next code point, the upper
// one even in U+0100-0137 and U+014A-0177, odd in U+0139-0148 and U+0179-017E.
bool latin_ext_upper(uint32_t c) {
  if ((c >= 0x100 && c <= 0x137) || (c >= 0x14A && c <= 0x177)) return c % 2 == 0 && c != 0x130;
  return ((c >= 0x139 && c <= 0x148) || (c >= 0x179 && c <= 0x17E)) && c % 2 == 1;
}

// Unicode's one-to-one case mappings for the blocks European text uses
// (Latin-1, Latin Extended-A, basic Greek and Cyrillic); other code points
// keep their case.
uint32_t lower_cp(uint32_t c) {
  if (c < 0x80) return uint32_t(std::tolower(int(c)));
  if ((c >= 0xC0 && c <= 0xDE && c != 0xD7) || (c >= 0x391 && c <= 0x3AB && c != 0x3A2) || (c >= 0x410 && c <= 0x42F))
    return c + 0x20;
  if (c >= 0x400 && c <= 0x40F) return c + 0x50;
  if (latin_ext_upper(c)) return c + 1;
  if (c == 0x178) return 0xFF;
  if (c == 0x386) return 0x3AC;
  if (c >= 0x388 && c <= 0x38A) return c + 0x25;
  if (c == 0x38C) return 0x3CC;
  if (c == 0x38E || c == 0x38F) return c + 0x3F;
  return c;
}

uint32_t upper_cp(uint32_t c) {
  if (c < 0x80) return uint32_t(std::toupper(int(c)));
  if ((c >= 0xE0 && c <= 0xFE && c != 0xF7) || (c >= 0x3B1 && c <= 0x3CB && c != 0x3C2) || (c >= 0x430 && c <= 0x44F))
    return c - 0x20;
  if (c >= 0x450 && c <= 0x45F) return c - 0x50;
  if (c > 0x100 && latin_ext_upper(c - 1)) return c - 1;
  switch (c) {
    case 0xFF: return 0x178;
    case 0xB5: return 0x39C;
    case 0x131: return 'I';
    case 0x17F: return 'S';
    case 0x3C2: return 0x3A3;
    case 0x3AC: return 0x386;
    case 0x3CC: return 0x38C;
    default: break;
  }
  if (c >= 0x3AD && c <= 0x3AF) return c - 0x25;
  if (c == 0x3CD || c == 0x3CE) return c - 0x3F;
  return c;
}

bool is_cased(uint32_t c) { return lower_cp(c) != c || upper_cp(c) != c; }

// ---- character classes over code points --------------------------------------------------
// Letters and digits of the scripts model text is written in; CPython's full
// tables are larger (docs/language.md).
bool cp_is_upper(uint32_t c) { return lower_cp(c) != c; }
bool cp_is_lower(uint32_t c) { return upper_cp(c) != c || c == 0xDF || c == 0xAA || c == 0xBA; }
bool cp_is_digit(uint32_t c) {
  if (c < 0x80) return c >= '0' && c <= '9';
  for (uint32_t zero : {0x660u, 0x6F0u, 0x966u, 0x9E6u, 0xE50u, 0xFF10u})
    if (c >= zero && c <= zero + 9) return true;
  return false;
}
bool cp_is_alpha(uint32_t c) {
  if (c < 0x80) return std::isalpha(int(c));
  if (cp_is_upper(c) || cp_is_lower(c)) return true;
  const std::pair<uint32_t, uint32_t> letters[] = {
      {0x180, 0x24F}, {0x370, 0x3FF}, {0x400, 0x481}, {0x48A, 0x52F}, {0x5D0, 0x5EA}, {0x620, 0x64A},
      {0x671, 0x6D3}, {0x904, 0x939}, {0xE01, 0xE30}, {0x1E00, 0x1FFF}, {0x3041, 0x3096}, {0x30A1, 0x30FA},
      {0x3400, 0x4DBF}, {0x4E00, 0x9FFF}, {0xAC00, 0xD7A3}};
  for (auto [lo, hi] : letters)
    if (c >= lo && c <= hi && c != 0x37E && c != 0x387 && c != 0x375) return true;
  return false;
}
bool cp_is_space(uint32_t c) {
  if (c < 0x80) return (c >= 0x09 && c <= 0x0D) || (c >= 0x1C && c <= 0x20);
  return c == 0x85 || c == 0xA0 || c == 0x1680 || (c >= 0x2000 && c <= 0x200A) || c == 0x2028 || c == 0x2029 ||
         c == 0x202F || c == 0x205F || c == 0x3000;
}
// isdigit and isnumeric also take superscript digits; isnumeric vulgar fractions too.
bool cp_is_digit_like(uint32_t c) { return cp_is_digit(c) || c == 0xB2 || c == 0xB3 || c == 0xB9; }
bool cp_is_numeric(uint32_t c) { return cp_is_digit_like(c) || (c >= 0xBC && c <= 0xBE); }
bool cp_is_alnum(uint32_t c) { return cp_is_alpha(c) || cp_is_numeric(c); }

std::string utf8_of(const std::vector<uint32_t>& cps) {
  std::string out;
  for (uint32_t c : cps) out += format_int(int64_t(c), "c");
  return out;
}

// isdigit, isalpha, ...: a non-empty string whose every code point passes.
template <bool (*F)(uint32_t)>
Obj str_is(Interp&, const CallArgs& a) {
  const std::vector<uint32_t> cps = utf8_code_points(self_str(a));
  return Obj::from_bool(!cps.empty() && std::all_of(cps.begin(), cps.end(), F));
}

// isupper/islower: at least one cased character and none of the other case.
template <bool Upper>
Obj str_is_case(Interp&, const CallArgs& a) {
  bool cased = false;
  for (uint32_t c : utf8_code_points(self_str(a))) {
    if (Upper ? cp_is_lower(c) : cp_is_upper(c)) return Obj::from_bool(false);
    cased = cased || cp_is_upper(c) || cp_is_lower(c);
  }
  return Obj::from_bool(cased);
}

Obj str_swapcase(Interp&, const CallArgs& a) {
  a.check("swapcase", 0, 0);
  std::vector<uint32_t> cps = utf8_code_points(self_str(a));
  for (uint32_t& c : cps) c = cp_is_upper(c) ? lower_cp(c) : upper_cp(c);
  return make_str(utf8_of(cps));
}

// title: a cased character after an uncased one starts a word (upper), the
// rest of the word lowers, as CPython's.
Obj str_title(Interp&, const CallArgs& a) {
  a.check("title", 0, 0);
  std::vector<uint32_t> cps = utf8_code_points(self_str(a));
  bool in_word = false;
  for (uint32_t& c : cps) {
    const bool cased = cp_is_upper(c) || cp_is_lower(c);
    c = in_word ? lower_cp(c) : upper_cp(c);
    in_word = cased;
  }
  return make_str(utf8_of(cps));
}

Obj str_capitalize(Interp&, const CallArgs& a) {
  a.check("capitalize", 0, 0);
  std::vector<uint32_t> cps = utf8_code_points(self_str(a));
  for (size_t i = 0; i < cps.size(); ++i) cps[i] = i == 0 ? upper_cp(cps[i]) : lower_cp(cps[i]);
  return make_str(utf8_of(cps));
}

// lower / upper / casefold over code points: ASCII strings keep the byte
// loop; sigma lowers to the final form at a word's end, and upper (casefold)
// spells sharp s as "SS" ("ss"), as CPython does.
template <bool Upper, bool Fold>
Obj str_case(Interp&, const CallArgs& a) {
  a.check(Upper ? "upper" : Fold ? "casefold" : "lower", 0, 0);
  const std::string& s = self_str(a);
  if (std::all_of(s.begin(), s.end(), [](char c) { return static_cast<unsigned char>(c) < 0x80; })) {
    std::string out = s;
    for (char& c : out) {
      const int u = static_cast<unsigned char>(c);
      c = char(Upper ? std::toupper(u) : std::tolower(u));
    }
    return make_str(std::move(out));
  }
  const std::vector<uint32_t> cps = utf8_code_points(s);
  std::string out;
  for (size_t i = 0; i < cps.size(); ++i) {
    const uint32_t c = cps[i];
    if (c == 0xDF && (Upper || Fold)) {
      out += Upper ? "SS" : "ss";
      continue;
    }
    uint32_t m = Upper ? upper_cp(c) : lower_cp(c);
    if (Fold) m = m == 0xB5 ? 0x3BC : m == 0x17F ? 's' : m == 0x3C2 ? 0x3C3 : m;  // the folds beyond lower
    if (m == 0x3C3 && !Fold && i > 0 && is_cased(cps[i - 1]) && (i + 1 == cps.size() || !is_cased(cps[i + 1])))
      m = 0x3C2;
    out += format_int(int64_t(m), "c");
  }
  return make_str(std::move(out));
}

const MethodTable& str_methods() {
  static const MethodTable t = {
      {"join", str_join}, {"split", str_split}, {"rsplit", str_rsplit}, {"splitlines", str_splitlines},
      {"strip", str_strip}, {"lstrip", str_lstrip}, {"rstrip", str_rstrip},
      {"upper", str_case<true, false>}, {"lower", str_case<false, false>}, {"casefold", str_case<false, true>},
      {"swapcase", str_swapcase}, {"title", str_title}, {"capitalize", str_capitalize},
      {"startswith", str_startswith}, {"endswith", str_endswith}, {"replace", str_replace},
      {"format", str_format_method}, {"find", str_find}, {"rfind", str_rfind}, {"index", str_index},
      {"rindex", str_rindex}, {"count", str_count}, {"isdigit", str_is<cp_is_digit_like>},
      {"isdecimal", str_is<cp_is_digit>}, {"isnumeric", str_is<cp_is_numeric>}, {"isalpha", str_is<cp_is_alpha>},
      {"isalnum", str_is<cp_is_alnum>}, {"isspace", str_is<cp_is_space>}, {"isupper", str_is_case<true>},
      {"islower", str_is_case<false>}, {"center", str_center}, {"ljust", str_ljust}, {"rjust", str_rjust},
      {"zfill", str_zfill}, {"partition", str_partition}, {"rpartition", str_rpartition},
      {"removeprefix", str_removeprefix}, {"removesuffix", str_removesuffix}, {"encode", str_encode},
      {"isidentifier", str_isidentifier}, {"isascii", str_isascii}, {"expandtabs", str_expandtabs},
      {"maketrans", str_maketrans}, {"translate", str_translate}, {"isprintable", str_isprintable},
      {"format_map", str_format_map},
  };
  return t;
}

// ---- list and tuple -----------------------------------------------------------------------
Obj list_append(Interp&, const CallArgs& a) {
  a.check("append", 1, 1);
  self_list(a).push_back(a.pos[0]);
  return Obj();
}

Obj list_extend(Interp& in, const CallArgs& a) {
  a.check("extend", 1, 1);
  extend_from_iterable(in, self_list(a), a.pos[0]);
  return Obj();
}

Obj list_insert(Interp& in, const CallArgs& a) {
  a.check("insert", 2, 2);
  auto& v = self_list(a);
  int64_t i = to_index(in, a.pos[0], "an integer");  // first: a user __index__ may resize the list
  int64_t n = int64_t(v.size());
  if (i < 0) i = std::max<int64_t>(0, i + n);
  i = std::min(i, n);
  v.insert(v.begin() + i, a.pos[1]);
  return Obj();
}

Obj list_pop(Interp& in, const CallArgs& a) {
  a.check("pop", 0, 1);
  auto& v = self_list(a);
  KILN_CHECK(!v.empty(), Index, "pop from empty list");
  int64_t n = int64_t(v.size()), i = a.pos.empty() ? n - 1 : to_index(in, a.pos[0], "an integer");
  if (i < 0) i += n;
  KILN_CHECK(i >= 0 && i < n, Index, "pop index out of range");
  Obj r = v[size_t(i)];
  v.erase(v.begin() + i);
  return r;
}

Obj list_remove(Interp& in, const CallArgs& a) {
  a.check("remove", 1, 1);
  auto& v = self_list(a);
  // Each item is held while compared: a user __eq__ may shrink the list.
  for (size_t i = 0; i < v.size(); ++i) {
    Obj item = v[i];
    if (equals(in, item, a.pos[0])) {
      if (i < v.size()) v.erase(v.begin() + long(i));
      return Obj();
    }
  }
  throw Error("list.remove(x): x not in list", ErrorKind::Value);
}

int64_t seq_find(Interp& in, const CallArgs& a, const std::vector<Obj>& v) {
  int64_t n = int64_t(v.size());
  auto bound = [&](size_t i, int64_t def) {
    if (i >= a.pos.size()) return def;
    int64_t x = to_index(in, a.pos[i], "an integer");
    if (x < 0) x = std::max<int64_t>(0, x + n);
    return std::min(x, n);
  };
  int64_t lo = bound(1, 0), hi = bound(2, n);
  for (int64_t i = lo; i < hi && i < int64_t(v.size()); ++i) {
    Obj item = v[size_t(i)];
    if (equals(in, item, a.pos[0])) return i;
  }
  return -1;
}

Obj list_index(Interp& in, const CallArgs& a) {
  a.check("index", 1, 3);
  int64_t i = seq_find(in, a, self_list(a));
  if (i < 0) throw Error(repr(in, a.pos[0]) + " is not in list", ErrorKind::Value);
  return Obj::from_int(i);
}

Obj seq_count(Interp& in, const CallArgs& a, const std::vector<Obj>& v) {
  a.check("count", 1, 1);
  int64_t n = 0;
  for (size_t i = 0; i < v.size(); ++i) {
    Obj item = v[i];
    n += equals(in, item, a.pos[0]);
  }
  return Obj::from_int(n);
}
Obj list_count(Interp& in, const CallArgs& a) { return seq_count(in, a, self_list(a)); }

// Stable sort with Python's `<`; the list keeps its old contents if a comparison raises.
bool less_than(Interp& in, const Obj& x, const Obj& y) {
  if (x.is_intlike() && y.is_intlike()) return x.as_int() < y.as_int();
  if (x.is_number() && y.is_number()) return x.as_number() < y.as_number();
  if (auto* s = x.as<StrObj>())
    if (auto* t = y.as<StrObj>()) return s->value < t->value;
  return truthy(in, compare(in, CmpOpKind::Lt, x, y));
}

// A stable merge sort of `order` by keys. Not std::stable_sort: a user __lt__
// need not be a strict weak order, and the library's unguarded insertion
// steps can then run off the ends of the buffer.
void merge_sort(Interp& in, std::vector<size_t>& order, const std::vector<Obj>& keys) {
  std::vector<size_t> buf(order.size());
  for (size_t width = 1; width < order.size(); width *= 2) {
    for (size_t lo = 0; lo < order.size(); lo += 2 * width) {
      size_t mid = std::min(lo + width, order.size()), hi = std::min(lo + 2 * width, order.size());
      size_t i = lo, j = mid, k = lo;
      while (i < mid && j < hi) buf[k++] = less_than(in, keys[order[j]], keys[order[i]]) ? order[j++] : order[i++];
      while (i < mid) buf[k++] = order[i++];
      while (j < hi) buf[k++] = order[j++];
    }
    order.swap(buf);
  }
}

}  // namespace

void sort_objs(Interp& in, std::vector<Obj>& v, const Obj& key, bool reverse) {
  // As in CPython the list reads as empty while keys and comparisons run user
  // code; changes made meanwhile are discarded and reported.
  std::vector<Obj> items;
  items.swap(v);
  std::vector<Obj> out;
  try {
    std::vector<Obj> keys;
    if (key.is_none()) {
      keys = items;
    } else {
      keys.reserve(items.size());
      for (const Obj& x : items) keys.push_back(in.call(key, {&x, 1}));
    }
    std::vector<size_t> order(items.size());
    for (size_t i = 0; i < order.size(); ++i) order[i] = i;
    // Reverse sorts stay stable: reverse, sort, reverse (as CPython does).
    if (reverse) std::reverse(order.begin(), order.end());
    merge_sort(in, order, keys);
    if (reverse) std::reverse(order.begin(), order.end());
    out.reserve(items.size());
    for (size_t i : order) out.push_back(items[i]);
  } catch (...) {
    v = std::move(items);
    throw;
  }
  bool modified = !v.empty();
  v = std::move(out);
  KILN_CHECK(!modified, Value, "list modified during sort");
}

namespace {

Obj list_sort(Interp& in, const CallArgs& a) {
  KILN_CHECK(a.pos.empty(), Type, "sort() takes no positional arguments");
  a.check("sort", 0, 0, "key reverse");
  sort_objs(in, self_list(a), a.arg(99, "key"), truthy(in, a.arg(99, "reverse", Obj::from_bool(false))));
  return Obj();
}

Obj list_reverse(Interp&, const CallArgs& a) {
  a.check("reverse", 0, 0);
  std::reverse(self_list(a).begin(), self_list(a).end());
  return Obj();
}

Obj list_copy(Interp&, const CallArgs& a) {
  a.check("copy", 0, 0);
  return make_list(self_list(a));
}

Obj list_clear(Interp&, const CallArgs& a) {
  a.check("clear", 0, 0);
  self_list(a).clear();
  return Obj();
}

const MethodTable& list_methods() {
  static const MethodTable t = {
      {"append", list_append}, {"extend", list_extend}, {"insert", list_insert}, {"pop", list_pop},
      {"remove", list_remove}, {"index", list_index}, {"count", list_count}, {"sort", list_sort},
      {"reverse", list_reverse}, {"copy", list_copy}, {"clear", list_clear},
  };
  return t;
}

Obj tuple_index(Interp& in, const CallArgs& a) {
  a.check("index", 1, 3);
  int64_t i = seq_find(in, a, a.self.as<TupleObj>()->items);
  KILN_CHECK(i >= 0, Value, "tuple.index(x): x not in tuple");
  return Obj::from_int(i);
}
Obj tuple_count(Interp& in, const CallArgs& a) { return seq_count(in, a, a.self.as<TupleObj>()->items); }

// torch.Size methods: numel() is the product of the sizes.
Obj size_numel(Interp&, const CallArgs& a) {
  int64_t n = 1;
  for (const Obj& x : a.self.as<TupleObj>()->items) n *= x.as_int();
  return Obj::from_int(n);
}

const MethodTable& tuple_methods() {
  static const MethodTable t = {{"index", tuple_index}, {"count", tuple_count}, {"numel", size_numel}};
  return t;
}

// ---- dict -----------------------------------------------------------------------------------
Obj dict_get(Interp&, const CallArgs& a) {
  a.check("get", 1, 2);
  if (Obj* v = self_dict(a).find(a.pos[0])) return *v;
  return a.pos.size() > 1 ? a.pos[1] : Obj();
}

Obj dict_view(const CallArgs& a, DictIterKind k) {
  a.check(k == DictIterKind::Keys ? "keys" : k == DictIterKind::Values ? "values" : "items", 0, 0);
  return make<DictViewObj>(a.self, k);
}
Obj dict_keys(Interp&, const CallArgs& a) { return dict_view(a, DictIterKind::Keys); }
Obj dict_values(Interp&, const CallArgs& a) { return dict_view(a, DictIterKind::Values); }
Obj dict_items(Interp&, const CallArgs& a) { return dict_view(a, DictIterKind::Items); }

Obj dict_setdefault(Interp&, const CallArgs& a) {
  a.check("setdefault", 1, 2);
  if (Obj* v = self_dict(a).find(a.pos[0])) return *v;
  Obj d = a.pos.size() > 1 ? a.pos[1] : Obj();
  self_dict(a).set(a.pos[0], d);
  return d;
}

}  // namespace

// dict.update / dict(...) share this: a mapping, an iterable of pairs, then keywords.
void dict_update_from(Interp& in, OrderedMap& m, const Obj& other, std::span<const Kwarg> kw) {
  if (auto* d = other.as<DictObj>()) {
    std::vector<std::pair<Obj, Obj>> items;
    d->map.for_each([&](const Obj& k, const Obj& v) { items.emplace_back(k, v); });
    for (auto& [k, v] : items) m.set(k, v);
  } else if (other.kind() == Kind::Instance && !special_method(in, other, "keys").is_null()) {
    Obj keys = in.call_method(other, "keys");
    std::vector<Obj> ks;
    extend_from_iterable(in, ks, keys);
    for (const Obj& k : ks) m.set(k, getitem(in, other, k));
  } else if (!other.is_null()) {
    Obj it = iter(in, other);
    Obj item;
    for (size_t i = 0; iter_next(in, it, item); ++i) {
      std::vector<Obj> pair;
      try {
        extend_from_iterable(in, pair, item);
      } catch (const Error& e) {
        if (e.kind() != ErrorKind::Type) throw;
        throw Error(detail::cat("cannot convert dictionary update sequence element #", i, " to a sequence"),
                    ErrorKind::Type);
      }
      if (pair.size() != 2)
        throw Error(detail::cat("dictionary update sequence element #", i, " has length ", pair.size(),
                                "; 2 is required"),
                    ErrorKind::Value);
      m.set(pair[0], pair[1]);
    }
  }
  for (const Kwarg& k : kw) m.set(std::string_view(*k.name), k.value);
}

namespace {

Obj dict_update(Interp& in, const CallArgs& a) {
  KILN_CHECK(a.pos.size() <= 1, Type, "update expected at most 1 argument, got ", a.pos.size());
  dict_update_from(in, self_dict(a), a.pos.empty() ? Obj::null() : a.pos[0], a.kw);
  return Obj();
}

Obj dict_pop(Interp& in, const CallArgs& a) {
  a.check("pop", 1, 2);
  OrderedMap& m = self_dict(a);
  if (Obj* v = m.find(a.pos[0])) {
    Obj r = *v;
    m.erase(a.pos[0]);
    return r;
  }
  if (a.pos.size() > 1) return a.pos[1];
  raise_exception(in, exception_class_for(in, ErrorKind::Key), {a.pos[0]});
}

// popitem(): the last item; an OrderedDict's popitem(last=False) the first.
Obj dict_popitem(Interp& in, const CallArgs& a) {
  const bool ordered = a.self.as<DictObj>()->ordered;
  a.check("popitem", 0, ordered ? 1 : 0, ordered ? "last" : "");
  const bool last = truthy(in, a.arg(0, "last", Obj::from_bool(true)));
  OrderedMap& m = self_dict(a);
  auto& items = m.items();
  for (size_t n = items.size(), j = 0; j < n; ++j) {
    const size_t i = last ? n - 1 - j : j;
    if (items[i].first.is_null()) continue;
    Obj k = items[i].first, v = items[i].second;
    m.erase(k);
    return make_tuple({k, v});
  }
  raise_exception(in, exception_class_for(in, ErrorKind::Key), {make_str("popitem(): dictionary is empty")});
}

Obj dict_copy(Interp&, const CallArgs& a) {
  a.check("copy", 0, 0);
  auto d = new DictObj();
  Obj r(d);
  d->ordered = a.self.as<DictObj>()->ordered;
  self_dict(a).for_each([&](const Obj& k, const Obj& v) { d->map.set(k, v); });
  return r;
}

// OrderedDict.move_to_end(key, last=True).
Obj dict_move_to_end(Interp& in, const CallArgs& a) {
  KILN_CHECK(a.self.as<DictObj>()->ordered, Attribute, "'dict' object has no attribute 'move_to_end'");
  a.check("move_to_end", 1, 2, "last");
  const bool last = truthy(in, a.arg(1, "last", Obj::from_bool(true)));
  OrderedMap& m = self_dict(a);
  const Obj* found = m.find(a.pos[0]);
  if (!found) raise_exception(in, exception_class_for(in, ErrorKind::Key), {a.pos[0]});
  Obj key = a.pos[0], value = *found;
  std::vector<std::pair<Obj, Obj>> rest;
  m.for_each([&](const Obj& k, const Obj& v) {
    if (!equals(in, k, key)) rest.emplace_back(k, v);
  });
  m.clear();
  if (!last) m.set(key, value);
  for (const auto& [k, v] : rest) m.set(k, v);
  if (last) m.set(key, value);
  return Obj();
}

Obj dict_clear(Interp&, const CallArgs& a) {
  a.check("clear", 0, 0);
  self_dict(a).clear();
  return Obj();
}

// d.__getitem__(k) and friends, for code that passes them as callables
// (a hook lambda storing into a dict, map(d.__getitem__, keys)).
Obj dict_dunder_getitem(Interp& in, const CallArgs& a) {
  a.check("__getitem__", 1, 1);
  return getitem(in, a.self, a.pos[0]);
}

Obj dict_dunder_setitem(Interp& in, const CallArgs& a) {
  a.check("__setitem__", 2, 2);
  setitem(in, a.self, a.pos[0], a.pos[1]);
  return Obj();
}

Obj dict_dunder_delitem(Interp& in, const CallArgs& a) {
  a.check("__delitem__", 1, 1);
  delitem(in, a.self, a.pos[0]);
  return Obj();
}

Obj dict_dunder_contains(Interp& in, const CallArgs& a) {
  a.check("__contains__", 1, 1);
  return Obj::from_bool(contains(in, a.self, a.pos[0]));
}

const MethodTable& dict_methods() {
  static const MethodTable t = {
      {"__getitem__", dict_dunder_getitem}, {"__setitem__", dict_dunder_setitem},
      {"__delitem__", dict_dunder_delitem}, {"__contains__", dict_dunder_contains},
      {"get", dict_get}, {"keys", dict_keys}, {"values", dict_values}, {"items", dict_items},
      {"setdefault", dict_setdefault}, {"update", dict_update}, {"pop", dict_pop},
      {"popitem", dict_popitem}, {"copy", dict_copy}, {"clear", dict_clear},
      {"move_to_end", dict_move_to_end},
  };
  return t;
}

// ---- set ------------------------------------------------------------------------------------
Obj set_add(Interp&, const CallArgs& a) {
  a.check("add", 1, 1);
  self_set(a).set(a.pos[0], Obj());
  return Obj();
}

Obj set_remove(Interp& in, const CallArgs& a) {
  a.check("remove", 1, 1);
  if (!self_set(a).erase(a.pos[0])) raise_exception(in, exception_class_for(in, ErrorKind::Key), {a.pos[0]});
  return Obj();
}

Obj set_discard(Interp&, const CallArgs& a) {
  a.check("discard", 1, 1);
  self_set(a).erase(a.pos[0]);
  return Obj();
}

Obj set_pop(Interp& in, const CallArgs& a) {
  a.check("pop", 0, 0);
  OrderedMap& m = self_set(a);
  if (m.size() != 0) {  // CPython's pop takes the first item of its table
    Obj key = set_items_in_order(*a.self.as<SetObj>()).front();
    m.erase(key);
    return key;
  }
  raise_exception(in, exception_class_for(in, ErrorKind::Key), {make_str("pop from an empty set")});
}

std::vector<Obj> items_of(Interp& in, const Obj& o) {
  std::vector<Obj> v;
  extend_from_iterable(in, v, o);
  return v;
}

// A copy of a set (CPython's: one merge); a frozenset's methods return frozensets.
Obj new_set(Interp& in, const Obj& from) {
  auto s = new SetObj();
  s->frozen = from.as<SetObj>()->frozen;
  Obj r(s);
  set_add_all(in, *s, from);
  return r;
}

Obj set_update(Interp& in, const CallArgs& a) {
  for (const Obj& o : a.pos) set_add_all(in, *a.self.as<SetObj>(), o);
  return Obj();
}

Obj set_union(Interp& in, const CallArgs& a) {
  Obj r = new_set(in, a.self);
  for (const Obj& o : a.pos) set_add_all(in, *r.as<SetObj>(), o);
  return r;
}

// A temporary set of another iterable's items, for membership tests.
Obj as_set(Interp& in, const Obj& o) {
  if (o.kind() == Kind::Set) return o;
  auto s = new SetObj();
  Obj r(s);
  for (const Obj& x : items_of(in, o)) s->map.set(x, Obj());
  return r;
}

Obj set_filter(Interp& in, const CallArgs& a, bool keep_common) {
  Obj r = a.pos.empty() ? new_set(in, a.self) : a.self;
  for (const Obj& o : a.pos) {
    const Obj held = as_set(in, o);
    const SetObj& other = *held.as<SetObj>();
    if (keep_common) r = set_binary(BinOpKind::BitAnd, *r.as<SetObj>(), other);
    else if (o.kind() == Kind::Set || o.kind() == Kind::Dict) r = set_binary(BinOpKind::Sub, *r.as<SetObj>(), other);
    else r = set_copy_and_difference(*r.as<SetObj>(), other);  // CPython's way for other iterables
  }
  return r;
}
Obj set_intersection(Interp& in, const CallArgs& a) { return set_filter(in, a, true); }
Obj set_difference(Interp& in, const CallArgs& a) { return set_filter(in, a, false); }

Obj set_symmetric_difference(Interp& in, const CallArgs& a) {
  a.check("symmetric_difference", 1, 1);
  Obj other = as_set(in, a.pos[0]);
  return binary_op(in, BinOpKind::BitXor, a.self, other);
}

Obj set_issubset(Interp& in, const CallArgs& a) {
  a.check("issubset", 1, 1);
  return compare(in, CmpOpKind::LtE, a.self, as_set(in, a.pos[0]));
}
Obj set_issuperset(Interp& in, const CallArgs& a) {
  a.check("issuperset", 1, 1);
  return compare(in, CmpOpKind::GtE, a.self, as_set(in, a.pos[0]));
}
Obj set_isdisjoint(Interp& in, const CallArgs& a) {
  a.check("isdisjoint", 1, 1);
  Obj other = as_set(in, a.pos[0]);
  bool disjoint = true;
  self_set(a).for_each([&](const Obj& k, const Obj&) { disjoint = disjoint && !other.as<SetObj>()->map.find(k); });
  return Obj::from_bool(disjoint);
}

Obj set_copy(Interp& in, const CallArgs& a) {
  a.check("copy", 0, 0);
  return new_set(in, a.self);
}

Obj set_clear(Interp&, const CallArgs& a) {
  a.check("clear", 0, 0);
  self_set(a).clear();
  return Obj();
}

const MethodTable& set_methods() {
  static const MethodTable t = {
      {"add", set_add}, {"remove", set_remove}, {"discard", set_discard}, {"pop", set_pop},
      {"update", set_update}, {"union", set_union}, {"intersection", set_intersection},
      {"difference", set_difference}, {"symmetric_difference", set_symmetric_difference},
      {"issubset", set_issubset}, {"issuperset", set_issuperset}, {"isdisjoint", set_isdisjoint},
      {"copy", set_copy}, {"clear", set_clear},
  };
  return t;
}

// ---- range, numbers, properties -------------------------------------------------------------
Obj range_index(Interp& in, const CallArgs& a) {
  a.check("index", 1, 1);
  auto* r = a.self.as<RangeObj>();
  if (!contains(in, a.self, a.pos[0])) throw Error(repr(in, a.pos[0]) + " is not in range", ErrorKind::Value);
  return Obj::from_int((int64_t(a.pos[0].as_number()) - r->start) / r->step);
}
Obj range_count(Interp& in, const CallArgs& a) {
  a.check("count", 1, 1);
  return Obj::from_int(contains(in, a.self, a.pos[0]) ? 1 : 0);
}

const MethodTable& range_methods() {
  static const MethodTable t = {{"index", range_index}, {"count", range_count}};
  return t;
}

Obj int_bit_length(Interp&, const CallArgs& a) {
  int64_t v = a.self.as_int();
  uint64_t m = v < 0 ? uint64_t(0) - uint64_t(v) : uint64_t(v);
  return Obj::from_int(m ? 64 - __builtin_clzll(m) : 0);
}
Obj int_conjugate(Interp&, const CallArgs& a) { return Obj::from_int(a.self.as_int()); }
Obj float_is_integer(Interp&, const CallArgs& a) {
  double d = a.self.as_float();
  return Obj::from_bool(std::isfinite(d) && d == std::floor(d));
}
Obj float_conjugate(Interp&, const CallArgs& a) { return a.self; }

// float.as_integer_ratio(): the exact fraction m / 2^k in lowest terms.
Obj float_as_integer_ratio(Interp&, const CallArgs& a) {
  a.check("as_integer_ratio", 0, 0);
  double d = a.self.as_float();
  KILN_CHECK(!std::isnan(d), Value, "cannot convert NaN to integer ratio");
  KILN_CHECK(!std::isinf(d), Overflow, "cannot convert Infinity to integer ratio");
  int exp = 0;
  double frac = std::frexp(d, &exp);
  int64_t num = int64_t(std::ldexp(frac, 53));
  exp -= 53;
  while (num != 0 && num % 2 == 0 && exp < 0) num /= 2, ++exp;
  KILN_CHECK(exp <= 0 || std::fabs(double(num)) * std::ldexp(1.0, exp) < 9.2e18, Overflow,
             "integer overflow (kiln ints are 64-bit)");
  if (num == 0) exp = 0;
  if (exp >= 0) return make_tuple({Obj::from_int(num * (int64_t(1) << exp)), Obj::from_int(1)});
  KILN_CHECK(exp > -63, Overflow, "integer overflow (kiln ints are 64-bit)");
  return make_tuple({Obj::from_int(num), Obj::from_int(int64_t(1) << -exp)});
}

// float.hex(): sign, 0x, the leading bit, 13 hex digits of mantissa, the binary exponent.
Obj float_hex(Interp&, const CallArgs& a) {
  a.check("hex", 0, 0);
  double d = a.self.as_float();
  if (std::isnan(d)) return make_str("nan");
  if (std::isinf(d)) return make_str(d < 0 ? "-inf" : "inf");
  std::string sign = std::signbit(d) ? "-" : "";
  if (d == 0) return make_str(sign + "0x0.0p+0");
  uint64_t bits;
  std::memcpy(&bits, &d, sizeof bits);
  int field = int((bits >> 52) & 0x7ff);
  uint64_t mant = bits & ((uint64_t(1) << 52) - 1);
  int exp = field == 0 ? -1022 : field - 1023;  // subnormals keep a leading 0
  char buf[64];
  std::snprintf(buf, sizeof buf, "0x%d.%013llxp%+d", field == 0 ? 0 : 1, (unsigned long long)mant, exp);
  return make_str(sign + buf);
}

const MethodTable& int_methods() {
  static const MethodTable t = {{"bit_length", int_bit_length}, {"conjugate", int_conjugate}, {"to_bytes", int_to_bytes}};
  return t;
}
const MethodTable& float_methods() {
  static const MethodTable t = {{"is_integer", float_is_integer}, {"conjugate", float_conjugate}, {"hex", float_hex},
                                {"as_integer_ratio", float_as_integer_ratio}};
  return t;
}

// slice.indices(length): (start, stop, step) clamped to a sequence of that length.
Obj slice_indices_method(Interp& in, const CallArgs& a) {
  a.check("indices", 1, 1);
  int64_t n = to_index(in, a.pos[0], "an integer");
  KILN_CHECK(n >= 0, Value, "length should not be negative");
  int64_t start, stop, step;
  slice_indices(in, *a.self.as<SliceObj>(), n, start, stop, step);
  return make_tuple({Obj::from_int(start), Obj::from_int(stop), Obj::from_int(step)});
}
const MethodTable& slice_methods() {
  static const MethodTable t = {{"indices", slice_indices_method}};
  return t;
}

// @prop.setter / .getter / .deleter: a new property with one accessor replaced.
Obj property_setter(Interp&, const CallArgs& a) {
  a.check("setter", 1, 1);
  const PropertyObj& p = *a.self.as<PropertyObj>();
  return make<PropertyObj>(p.fget, a.pos[0], p.fdel, p.doc);
}
Obj property_getter(Interp&, const CallArgs& a) {
  a.check("getter", 1, 1);
  const PropertyObj& p = *a.self.as<PropertyObj>();
  return make<PropertyObj>(a.pos[0], p.fset, p.fdel, p.doc);
}
Obj property_deleter(Interp&, const CallArgs& a) {
  a.check("deleter", 1, 1);
  const PropertyObj& p = *a.self.as<PropertyObj>();
  return make<PropertyObj>(p.fget, p.fset, a.pos[0], p.doc);
}
const MethodTable& property_methods() {
  static const MethodTable t = {
      {"setter", property_setter}, {"getter", property_getter}, {"deleter", property_deleter}};
  return t;
}

// The set methods that change the set, which a frozenset lacks.
bool is_set_mutator(std::string_view name) {
  for (std::string_view m : {"add", "remove", "discard", "pop", "update", "clear"})
    if (name == m) return true;
  return false;
}

const MethodTable* methods_for(Kind k) {
  switch (k) {
    case Kind::Str: return &str_methods();
    case Kind::List: return &list_methods();
    case Kind::Tuple: return &tuple_methods();
    case Kind::Dict: return &dict_methods();
    case Kind::Set: return &set_methods();
    case Kind::Range: return &range_methods();
    case Kind::Int: case Kind::Bool: return &int_methods();
    case Kind::Float: return &float_methods();
    case Kind::Property: return &property_methods();
    case Kind::Slice: return &slice_methods();
    default: return nullptr;
  }
}

// Plain data attributes; Null when o has none called `name`.
Obj data_attribute(const Obj& o, const std::string& name) {
  switch (o.kind()) {
    case Kind::Range: {
      auto* r = o.as<RangeObj>();
      if (name == "start") return Obj::from_int(r->start);
      if (name == "stop") return Obj::from_int(r->stop);
      if (name == "step") return Obj::from_int(r->step);
      break;
    }
    case Kind::Slice: {
      auto* s = o.as<SliceObj>();
      if (name == "start") return s->start;
      if (name == "stop") return s->stop;
      if (name == "step") return s->step;
      break;
    }
    case Kind::Int: case Kind::Bool:
      if (name == "real" || name == "numerator") return Obj::from_int(o.as_int());
      if (name == "imag") return Obj::from_int(0);
      if (name == "denominator") return Obj::from_int(1);
      break;
    case Kind::Float:
      if (name == "real") return o;
      if (name == "imag") return Obj::from_float(0);
      break;
    case Kind::Property:
      if (name == "fget") return o.as<PropertyObj>()->fget;
      if (name == "fset") return o.as<PropertyObj>()->fset;
      if (name == "fdel") return o.as<PropertyObj>()->fdel;
      if (name == "__doc__") {  // CPython copies fget's docstring when no doc is given
        const PropertyObj& p = *o.as<PropertyObj>();
        if (!p.doc.is_none() || p.fget.kind() != Kind::Function) return p.doc;
        Obj d = function_attr(p.fget, "__doc__");
        return d.is_null() ? Obj() : d;
      }
      break;
    case Kind::StaticMethod:
      if (name == "__func__") return o.as<StaticMethodObj>()->func;
      break;
    case Kind::ClassMethod:
      if (name == "__func__") return o.as<ClassMethodObj>()->func;
      break;
    case Kind::Device: {
      auto* d = o.as<DeviceObj>();
      if (name == "type") return make_str(d->type);
      if (name == "index") return d->index < 0 ? Obj() : Obj::from_int(d->index);
      break;
    }
    case Kind::DType:
      if (name == "is_floating_point") return Obj::from_bool(is_floating(o.as_dtype()));
      if (name == "itemsize") return Obj::from_int(int64_t(dtype_size(o.as_dtype())));
      if (name == "is_signed") return Obj::from_bool(o.as_dtype() != DType::UInt8 && o.as_dtype() != DType::Bool);
      if (name == "is_complex") return Obj::from_bool(false);
      break;
    default: break;
  }
  return Obj::null();
}

}  // namespace

NativeFn builtin_method_fn(Kind k, std::string_view name, bool frozen) {
  if (frozen && is_set_mutator(name)) return nullptr;
  if (k == Kind::Bytes) return bytes_method_fn(name);
  const MethodTable* t = methods_for(k);
  if (!t) return nullptr;
  auto it = t->find(name);
  return it == t->end() ? nullptr : it->second;
}

Obj builtin_method(Interp&, const Obj& self, const std::string& name) {
  if (name == "throw" && is_generator(self)) {  // contextlib's @contextmanager throws into its generator
    auto* b = new BuiltinObj(name, generator_throw);
    b->self = self;
    return Obj(b);
  }
  if (self.kind() == Kind::Bytes) {
    NativeFn fn = bytes_method_fn(name);
    if (!fn) return Obj::null();
    auto* b = new BuiltinObj(name, fn);
    b->self = self;
    return Obj(b);
  }
  if (const MethodTable* t = methods_for(self.kind())) {
    if (self.kind() == Kind::Set && self.as<SetObj>()->frozen && is_set_mutator(name)) return Obj::null();
    auto it = t->find(name);
    if (it != t->end()) {
      if (it->second == size_numel && !self.as<TupleObj>()->is_size) return Obj::null();
      auto* b = new BuiltinObj(name, it->second);
      b->self = self;
      return Obj(b);
    }
  }
  return data_attribute(self, name);
}

}  // namespace kiln::lang

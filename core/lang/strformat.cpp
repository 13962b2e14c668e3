// String formatting in CPython's style: one parsed FormatSpec drives
// format(), f-strings, str.format and (after translating its flags) `%`.
#include "core/lang/strformat.h"

#include <cmath>
#include <cstdint>
#include <cstdio>

#include "core/alloc_limit.h"
#include "core/lang/interp.h"
#include "core/lang/objops.h"

namespace kiln::lang {

namespace {

// ---- the format-spec mini-language --------------------------------------------------
// [[fill]align][sign][z][#][0][width][grouping][.precision][type]
struct FormatSpec {
  char fill = ' ';
  char align = 0;  // '<' '>' '^' '=' or 0 for the type's default
  char sign = '-';
  bool alt = false;
  bool zero = false;
  int64_t width = 0;
  char grouping = 0;  // ',' '_' or 0
  int precision = -1;
  char type = 0;
  bool explicit_fill = false;
};

bool is_align(char c) { return c == '<' || c == '>' || c == '^' || c == '='; }

int64_t parse_number(std::string_view s, size_t& i) {
  int64_t n = 0;
  while (i < s.size() && s[i] >= '0' && s[i] <= '9') {
    n = n * 10 + (s[i++] - '0');
    KILN_CHECK(n < (int64_t(1) << 31), Value, "Too many decimal digits in format string");
  }
  return n;
}

FormatSpec parse_spec(std::string_view s, const char* type_name) {
  FormatSpec sp;
  size_t i = 0;
  if (s.size() >= 2 && is_align(s[1])) {
    sp.fill = s[0], sp.align = s[1], sp.explicit_fill = true, i = 2;
  } else if (!s.empty() && is_align(s[0])) {
    sp.align = s[0], i = 1;
  }
  if (i < s.size() && (s[i] == '+' || s[i] == '-' || s[i] == ' ')) sp.sign = s[i++];
  if (i < s.size() && s[i] == 'z') ++i;
  if (i < s.size() && s[i] == '#') sp.alt = true, ++i;
  if (i < s.size() && s[i] == '0') sp.zero = true, ++i;
  sp.width = parse_number(s, i);
  if (i < s.size() && (s[i] == ',' || s[i] == '_')) sp.grouping = s[i++];
  bool bad = false;
  if (i < s.size() && s[i] == '.') {
    size_t start = ++i;
    sp.precision = int(parse_number(s, i));
    bad = i == start;
  }
  if (i < s.size()) sp.type = s[i++];
  if (bad || i != s.size())
    throw Error(detail::cat("Invalid format specifier '", s, "' for object of type '", type_name, "'"),
                ErrorKind::Value);
  if (sp.zero && !sp.explicit_fill) sp.fill = '0';
  if (sp.zero && !sp.align) sp.align = '=';
  return sp;
}

[[noreturn]] void unknown_code(char type, const char* type_name) {
  throw Error(detail::cat("Unknown format code '", type, "' for object of type '", type_name, "'"),
              ErrorKind::Value);
}

size_t utf8_len(std::string_view s) {
  size_t n = 0;
  for (unsigned char c : s) n += (c & 0xC0) != 0x80;
  return n;
}

// Pads `prefix + body` to the width. '=' puts the fill between the sign/prefix and the digits.
// Widths and precisions reach 2**31: refuse those that cannot be allocated
// (Storage's wording; the error kinds have no MemoryError).
void check_format_size(int64_t n) {
  KILN_CHECK(uint64_t(n) <= kiln::alloc_limit(), Runtime, "out of memory: could not allocate ", n, " bytes");
}

std::string pad(const FormatSpec& sp, const std::string& prefix, const std::string& body, char default_align) {
  size_t len = utf8_len(prefix) + utf8_len(body);
  if (sp.width <= int64_t(len)) return prefix + body;
  check_format_size(sp.width);
  size_t n = size_t(sp.width) - len;
  char align = sp.align ? sp.align : default_align;
  std::string fill(n, sp.fill);
  switch (align) {
    case '<': return prefix + body + fill;
    case '^': return std::string(n / 2, sp.fill) + prefix + body + std::string(n - n / 2, sp.fill);
    case '=': return prefix + fill + body;
    default: return fill + prefix + body;
  }
}

// Inserts a separator every `every` digits of the leading run of digits.
// `min_len`: zero-pad the digits first so the grouped result is at least this
// long (zero padding with a separator groups the zeros too: '00,001,234').
std::string group_digits(const std::string& digits_and_rest, char sep, size_t every, size_t min_len = 0) {
  if (!sep) return digits_and_rest;
  size_t end = 0;
  while (end < digits_and_rest.size() && std::isxdigit(static_cast<unsigned char>(digits_and_rest[end]))) ++end;
  std::string s = digits_and_rest;
  size_t rest = s.size() - end;
  if (end > 0 && min_len > rest) {
    // The fewest digits z >= end with z + (z - 1) / every >= min_len - rest,
    // searched from just below the estimate (widths reach 2**31).
    size_t target = min_len - rest, z = target * every / (every + 1);
    z = std::max(end, z > 2 ? z - 2 : 0);
    while (z + (z - 1) / every < target) ++z;
    s.insert(0, z - end, '0');
    end = z;
  }
  std::string head;
  for (size_t i = 0; i < end; ++i) {
    if (i > 0 && (end - i) % every == 0) head += sep;
    head += s[i];
  }
  return head + s.substr(end);
}

// How long zero-padded digits must be to fill the width after `prefix`.
size_t zero_pad_len(const FormatSpec& sp, const std::string& prefix) {
  if (sp.fill != '0' || sp.align != '=' || sp.width <= int64_t(prefix.size())) return 0;
  check_format_size(sp.width);
  return size_t(sp.width) - prefix.size();
}

std::string sign_str(bool negative, char sign) {
  if (negative) return "-";
  return sign == '+' ? "+" : sign == ' ' ? " " : "";
}

std::string to_base(uint64_t m, int base, bool upper) {
  if (m == 0) return "0";
  const char* digits = upper ? "0123456789ABCDEF" : "0123456789abcdef";
  std::string s;
  for (; m; m /= uint64_t(base)) s.insert(s.begin(), digits[m % uint64_t(base)]);
  return s;
}

std::string cfmt(const char* f, int prec, double v) {
  check_format_size(prec);
  char buf[512];
  int n = std::snprintf(buf, sizeof buf, f, prec, v);
  if (n >= 0 && size_t(n) < sizeof buf) return std::string(buf, size_t(n));
  std::string big(size_t(n) + 1, '\0');
  std::snprintf(big.data(), big.size(), f, prec, v);
  big.resize(size_t(n));
  return big;
}

std::string strip_zeros(std::string s) {
  size_t e = s.find_first_of("eE");
  std::string mant = e == std::string::npos ? s : s.substr(0, e);
  std::string exp = e == std::string::npos ? "" : s.substr(e);
  if (mant.find('.') != std::string::npos) {
    while (mant.back() == '0') mant.pop_back();
    if (mant.back() == '.') mant.pop_back();
  }
  return mant + exp;
}

// %g as Python does it; `add_dot0` is the no-type form ("1.0" rather than "1").
std::string format_general(double a, int p, bool alt, bool add_dot0, bool upper) {
  if (p == 0) p = 1;
  std::string e = cfmt("%.*e", p - 1, a);
  int exp10 = std::atoi(e.c_str() + e.find('e') + 1);
  std::string s;
  // The no-type form switches to exponents one digit earlier, so "1.0"-style output never shows extra digits.
  if (exp10 >= -4 && exp10 < (add_dot0 ? p - 1 : p)) {
    s = cfmt(alt ? "%#.*f" : "%.*f", p - 1 - exp10, a);
    if (!alt) s = strip_zeros(s);
    if (add_dot0 && s.find('.') == std::string::npos) s += ".0";
  } else {
    s = cfmt(alt ? "%#.*e" : "%.*e", p - 1, a);
    if (!alt) s = strip_zeros(s);
  }
  if (upper)
    for (char& c : s) c = char(std::toupper(static_cast<unsigned char>(c)));
  return s;
}

std::string float_body(double a, const FormatSpec& sp) {
  bool upper = sp.type == 'E' || sp.type == 'F' || sp.type == 'G';
  const char* pct = sp.type == '%' ? "%" : "";
  if (std::isinf(a)) return std::string(upper ? "INF" : "inf") + pct;
  if (std::isnan(a)) return std::string(upper ? "NAN" : "nan") + pct;
  int p = sp.precision;
  switch (sp.type) {
    case 0:
      if (p < 0) return float_repr(a);
      return format_general(a, p, sp.alt, true, false);
    case 'f': case 'F': return cfmt(sp.alt ? "%#.*f" : "%.*f", p < 0 ? 6 : p, a);
    case 'e': case 'E': return cfmt(sp.type == 'e' ? (sp.alt ? "%#.*e" : "%.*e") : (sp.alt ? "%#.*E" : "%.*E"),
                                    p < 0 ? 6 : p, a);
    case 'g': case 'G': case 'n': return format_general(a, p < 0 ? 6 : p, sp.alt, false, upper);
    case '%': return cfmt(sp.alt ? "%#.*f" : "%.*f", p < 0 ? 6 : p, a * 100) + "%";
    default: unknown_code(sp.type, "float");
  }
}

std::string apply_float(double v, const FormatSpec& sp) {
  bool neg = std::signbit(v) && !std::isnan(v);
  std::string body = float_body(std::fabs(v), sp);
  std::string sign = sign_str(neg, sp.sign);
  body = group_digits(body, sp.grouping, 3, zero_pad_len(sp, sign));
  return pad(sp, sign, body, '>');
}

std::string apply_int(int64_t v, const FormatSpec& sp) {
  char t = sp.type;
  if (t == 'e' || t == 'E' || t == 'f' || t == 'F' || t == 'g' || t == 'G' || t == '%')
    return apply_float(double(v), sp);
  KILN_CHECK(sp.precision < 0, Value, "Precision not allowed in integer format specifier");
  uint64_t mag = v < 0 ? uint64_t(0) - uint64_t(v) : uint64_t(v);
  std::string prefix = sign_str(v < 0, sp.sign), body;
  int base = 10;
  switch (t) {
    case 0: case 'd': case 'n': break;
    case 'x': case 'X': base = 16; break;
    case 'o': base = 8; break;
    case 'b': base = 2; break;
    case 'c': {
      KILN_CHECK(sp.sign == '-', Value, "Sign not allowed with integer format specifier 'c'");
      KILN_CHECK(v >= 0 && v <= 0x10FFFF, Overflow, "%c arg not in range(0x110000)");
      FormatSpec s2 = sp;
      s2.type = 0;
      std::string ch;
      uint32_t c = uint32_t(v);
      if (c < 0x80) ch = char(c);
      else if (c < 0x800) ch = {char(0xC0 | (c >> 6)), char(0x80 | (c & 0x3F))};
      else if (c < 0x10000) ch = {char(0xE0 | (c >> 12)), char(0x80 | ((c >> 6) & 0x3F)), char(0x80 | (c & 0x3F))};
      else ch = {char(0xF0 | (c >> 18)), char(0x80 | ((c >> 12) & 0x3F)), char(0x80 | ((c >> 6) & 0x3F)), char(0x80 | (c & 0x3F))};
      return pad(s2, "", ch, '<');
    }
    default: unknown_code(t, "int");
  }
  if (sp.grouping == ',' && base != 10)
    throw Error(detail::cat("Cannot specify ',' with '", t, "'."), ErrorKind::Value);
  body = to_base(mag, base, t == 'X');
  if (sp.alt && base != 10) prefix += t == 'X' ? "0X" : t == 'x' ? "0x" : t == 'o' ? "0o" : "0b";
  body = group_digits(body, sp.grouping, base == 10 ? 3 : 4, zero_pad_len(sp, prefix));
  return pad(sp, prefix, body, '>');
}

}  // namespace

std::string format_int(int64_t v, std::string_view spec) { return apply_int(v, parse_spec(spec, "int")); }

std::string format_float(double v, std::string_view spec) { return apply_float(v, parse_spec(spec, "float")); }

std::string format_str(const std::string& s, std::string_view spec) {
  if (spec.empty()) return s;
  FormatSpec sp = parse_spec(spec, "str");
  if (sp.type != 0 && sp.type != 's') unknown_code(sp.type, "str");
  KILN_CHECK(sp.sign == '-', Value, "Sign not allowed in string format specifier");
  KILN_CHECK(!sp.alt, Value, "Alternate form (#) not allowed in string format specifier");
  KILN_CHECK(sp.align != '=', Value, "'=' alignment not allowed in string format specifier");
  std::string body = s;
  if (sp.precision >= 0) {
    size_t n = 0, i = 0;
    while (i < body.size() && n < size_t(sp.precision)) {
      ++i;
      while (i < body.size() && (static_cast<unsigned char>(body[i]) & 0xC0) == 0x80) ++i;
      ++n;
    }
    body.resize(i);
  }
  return pad(sp, "", body, '<');
}

// ---- printf-style `%` ------------------------------------------------------------------
namespace {

struct PercentArgs {
  Interp& in;
  const Obj& args;
  std::vector<Obj> items;
  size_t next = 0;
  bool mapping = false;
  Obj take() {
    KILN_CHECK(next < items.size(), Type, "not enough arguments for format string");
    return items[next++];
  }
};

int64_t percent_star(PercentArgs& pa) {
  Obj w = pa.take();
  KILN_CHECK(w.is_intlike(), Type, "* wants int");
  // CPython reads '*' into a C int; larger widths would only build absurd strings.
  KILN_CHECK(w.as_int() >= INT32_MIN + 1 && w.as_int() <= INT32_MAX, Overflow,
             "Python int too large to convert to C int");
  return w.as_int();
}

std::string percent_one(Interp& in, const FormatSpec& sp, char conv, const Obj& v, size_t index) {
  auto number = [&](const char* what) -> Obj {
    if (v.is_number()) return v;
    if (v.kind() == Kind::Tensor) return v;
    throw Error(detail::cat("%", what, " format: a real number is required, not ", type_name(v)), ErrorKind::Type);
  };
  // %d / %f read a tensor through __int__/__float__: one element, else their ValueError (item() differs).
  auto tensor_scalar = [&](const Obj& n) -> Obj {
    KILN_CHECK(n.as<TensorObj>()->tensor.numel() == 1, Value,
               "only one element tensors can be converted to Python scalars");
    return in.call(getattr(in, n, "item"), {});
  };
  switch (conv) {
    case 's': case 'r': case 'a': {
      std::string s = conv == 's' ? str(in, v) : repr(in, v);
      if (sp.precision >= 0 && size_t(sp.precision) < s.size()) s.resize(size_t(sp.precision));
      return pad(sp, "", s, '>');
    }
    case 'd': case 'i': case 'u': {
      Obj n = number(std::string(1, conv).c_str());
      if (n.kind() == Kind::Tensor) n = tensor_scalar(n);
      int64_t iv = n.is_float() ? int64_t(std::trunc(n.as_float())) : n.as_int();
      FormatSpec s2 = sp;
      s2.type = 'd';
      s2.precision = -1;
      return apply_int(iv, s2);
    }
    case 'x': case 'X': case 'o': {
      KILN_CHECK(v.is_intlike(), Type, "%", conv, " format: an integer is required, not ", type_name(v));
      FormatSpec s2 = sp;
      s2.type = conv;
      s2.precision = -1;
      return apply_int(v.as_int(), s2);
    }
    case 'e': case 'E': case 'f': case 'F': case 'g': case 'G': {
      Obj n = number(std::string(1, conv).c_str());
      if (n.kind() == Kind::Tensor) n = tensor_scalar(n);
      FormatSpec s2 = sp;
      s2.type = conv;
      return apply_float(n.as_number(), s2);
    }
    case 'c': {
      if (v.kind() == Kind::Str) {
        KILN_CHECK(utf8_len(v.as<StrObj>()->value) == 1, Type, "%c requires int or char");
        return pad(sp, "", v.as<StrObj>()->value, '>');
      }
      KILN_CHECK(v.is_intlike(), Type, "%c requires int or char");
      FormatSpec s2 = sp;
      s2.type = 'c';
      s2.sign = '-';
      s2.align = sp.align ? sp.align : '>';
      return apply_int(v.as_int(), s2);
    }
    default:
      throw Error(detail::cat("unsupported format character '", conv, "' (0x", to_base(uint8_t(conv), 16, false),
                              ") at index ", index),
                  ErrorKind::Value);
  }
}

}  // namespace

std::string percent_format(Interp& in, const std::string& fmt, const Obj& args) {
  PercentArgs pa{in, args, {}};
  if (auto* t = args.as<TupleObj>()) pa.items = t->items;
  else pa.items = {args};
  pa.mapping = args.kind() == Kind::Dict;
  bool used_mapping = false;
  std::string out;
  size_t i = 0;
  while (i < fmt.size()) {
    char c = fmt[i++];
    if (c != '%') {
      out += c;
      continue;
    }
    KILN_CHECK(i < fmt.size(), Value, "incomplete format");
    Obj keyed = Obj::null();
    if (fmt[i] == '(') {
      size_t close = fmt.find(')', i);
      KILN_CHECK(close != std::string::npos, Value, "incomplete format key");
      KILN_CHECK(pa.mapping, Type, "format requires a mapping");
      keyed = getitem(in, args, make_str(fmt.substr(i + 1, close - i - 1)));
      used_mapping = true;
      i = close + 1;
    }
    FormatSpec sp;
    sp.align = '>';
    for (; i < fmt.size(); ++i) {
      char f = fmt[i];
      if (f == '-') sp.align = '<';
      else if (f == '+') sp.sign = '+';
      else if (f == ' ') sp.sign = sp.sign == '+' ? '+' : ' ';
      else if (f == '#') sp.alt = true;
      else if (f == '0') sp.zero = true;
      else break;
    }
    if (i < fmt.size() && fmt[i] == '*') {
      sp.width = percent_star(pa), ++i;
      if (sp.width < 0) sp.align = '<', sp.width = -sp.width;
    } else {
      sp.width = parse_number(fmt, i);
    }
    if (i < fmt.size() && fmt[i] == '.') {
      ++i;
      if (i < fmt.size() && fmt[i] == '*') sp.precision = int(percent_star(pa)), ++i;
      else sp.precision = int(parse_number(fmt, i));
    }
    KILN_CHECK(i < fmt.size(), Value, "incomplete format");
    char conv = fmt[i++];
    if (conv == '%') {
      out += '%';
      continue;
    }
    bool numeric = std::string_view("diuxXoeEfFgG").find(conv) != std::string_view::npos;
    if (sp.zero && sp.align == '>' && numeric) sp.fill = '0', sp.align = '=';
    Obj v = keyed.is_null() ? pa.take() : keyed;
    out += percent_one(in, sp, conv, v, i - 1);
  }
  if (!used_mapping && !pa.mapping)
    KILN_CHECK(pa.next == pa.items.size(), Type, "not all arguments converted during string formatting");
  return out;
}

// ---- str.format -------------------------------------------------------------------------
namespace {

struct FieldState {
  Interp& in;
  const CallArgs& args;
  const Obj* mapping;  // format_map's: named fields are its items
  int auto_index = 0;
  bool manual = false, automatic = false;
};

Obj lookup_field(FieldState& st, std::string_view name) {
  size_t end = name.find_first_of(".[");
  std::string_view head = name.substr(0, end);
  Obj v;
  if (head.empty() || std::isdigit(static_cast<unsigned char>(head[0]))) {
    KILN_CHECK(!st.mapping, Value, "Format string contains positional fields");
    int64_t idx;
    if (head.empty()) {
      KILN_CHECK(!st.manual, Value, "cannot switch from manual field specification to automatic field numbering");
      st.automatic = true;
      idx = st.auto_index++;
    } else {
      KILN_CHECK(!st.automatic, Value, "cannot switch from automatic field numbering to manual field specification");
      st.manual = true;
      size_t i = 0;
      idx = parse_number(head, i);
    }
    if (idx >= int64_t(st.args.pos.size()))
      throw Error(detail::cat("Replacement index ", idx, " out of range for positional args tuple"), ErrorKind::Index);
    v = st.args.pos[size_t(idx)];
  } else if (st.mapping) {
    v = getitem(st.in, *st.mapping, make_str(std::string(head)));
  } else {
    const Obj* kv = st.args.find_kw(head);
    if (!kv) throw Error(repr(st.in, make_str(std::string(head))), ErrorKind::Key);
    v = *kv;
  }
  // .attr and [key] chains
  size_t i = end;
  while (i < name.size()) {
    if (name[i] == '.') {
      size_t j = name.find_first_of(".[", i + 1);
      v = getattr(st.in, v, std::string(name.substr(i + 1, j - i - 1)));
      i = j;
    } else {
      size_t j = name.find(']', i);
      KILN_CHECK(j != std::string_view::npos, Value, "Missing ']' in format string");
      std::string key(name.substr(i + 1, j - i - 1));
      bool digits = !key.empty() && key.find_first_not_of("0123456789") == std::string::npos;
      v = getitem(st.in, v, digits ? Obj::from_int(std::stoll(key)) : make_str(key));
      i = j + 1;
    }
  }
  return v;
}

}  // namespace

std::string str_format(Interp& in, const std::string& fmt, const CallArgs& args, const Obj* mapping) {
  FieldState st{in, args, mapping};
  std::string out;
  size_t i = 0;
  while (i < fmt.size()) {
    char c = fmt[i];
    if (c == '}') {
      KILN_CHECK(i + 1 < fmt.size() && fmt[i + 1] == '}', Value, "Single '}' encountered in format string");
      out += '}', i += 2;
      continue;
    }
    if (c != '{') {
      out += c, ++i;
      continue;
    }
    if (i + 1 < fmt.size() && fmt[i + 1] == '{') {
      out += '{', i += 2;
      continue;
    }
    // Find the matching '}' (the spec may nest one level of {}).
    size_t j = i + 1;
    int depth = 1;
    for (; j < fmt.size(); ++j) {
      if (fmt[j] == '{') ++depth;
      else if (fmt[j] == '}' && --depth == 0) break;
    }
    KILN_CHECK(j < fmt.size(), Value, "Single '{' encountered in format string");
    std::string field = fmt.substr(i + 1, j - i - 1);
    i = j + 1;
    size_t colon = std::string::npos, bang = std::string::npos;
    for (size_t k = 0, br = 0; k < field.size(); ++k) {
      if (field[k] == '[') ++br;
      else if (field[k] == ']' && br) --br;
      else if (!br && field[k] == '!' && bang == std::string::npos && colon == std::string::npos) bang = k;
      else if (!br && field[k] == ':' && colon == std::string::npos) { colon = k; break; }
    }
    std::string name = field.substr(0, std::min(bang, colon));
    std::string spec = colon == std::string::npos ? "" : field.substr(colon + 1);
    if (spec.find('{') != std::string::npos) {
      std::string expanded;
      FieldState inner{in, args, mapping, st.auto_index, st.manual, st.automatic};
      // Expand the nested fields with the shared numbering state.
      for (size_t k = 0; k < spec.size(); ++k) {
        if (spec[k] != '{') {
          expanded += spec[k];
          continue;
        }
        size_t e = spec.find('}', k);
        KILN_CHECK(e != std::string::npos, Value, "unmatched '{' in format spec");
        expanded += str(in, lookup_field(inner, std::string_view(spec).substr(k + 1, e - k - 1)));
        k = e;
      }
      st.auto_index = inner.auto_index, st.manual = inner.manual, st.automatic = inner.automatic;
      spec = expanded;
    }
    Obj v = lookup_field(st, name);
    if (bang != std::string::npos) {
      size_t conv_end = colon == std::string::npos ? field.size() : colon;
      std::string conv = field.substr(bang + 1, conv_end - bang - 1);
      KILN_CHECK(conv.size() == 1, Value, "expected ':' after conversion specifier");
      if (conv == "r" || conv == "a") v = make_str(repr(in, v));
      else if (conv == "s") v = make_str(str(in, v));
      else throw Error(detail::cat("Unknown conversion specifier ", conv), ErrorKind::Value);
    }
    out += format_value(in, v, spec);
  }
  return out;
}

// ---- format(v, spec) ---------------------------------------------------------------------
std::string format_value(Interp& in, const Obj& v, std::string_view spec) {
  switch (v.kind()) {
    case Kind::Int: return spec.empty() ? std::to_string(v.as_int()) : format_int(v.as_int(), spec);
    case Kind::Bool: return spec.empty() ? str(in, v) : format_int(v.as_int(), spec);
    case Kind::Float: return format_float(v.as_float(), spec);
    case Kind::Str: return format_str(v.as<StrObj>()->value, spec);
    case Kind::Tensor:
      // PyTorch formats a 0-dim tensor through item() (f"{t}" prints 2.5); others only with an empty spec.
      if (v.as<TensorObj>()->tensor.dim() == 0)
        return format_value(in, in.call(getattr(in, v, "item"), {}), spec);
      break;
    case Kind::Instance: {
      Obj f = special_method(in, v, "__format__");
      if (!f.is_null()) {
        Obj s = make_str(std::string(spec));
        Obj r = in.call(f, {&s, 1});
        KILN_CHECK(r.kind() == Kind::Str, Type, "__format__ must return a str, not ", type_name(r));
        return r.as<StrObj>()->value;
      }
      break;
    }
    default: break;
  }
  if (spec.empty()) return str(in, v);
  throw Error(detail::cat("unsupported format string passed to ", type_name(v), ".__format__"), ErrorKind::Type);
}

}  // namespace kiln::lang

// Python bytes: repr, items, the bytes() constructor, the utf-8 / ascii /
// latin-1 codecs (str.encode, bytes.decode) with CPython's error texts, hex
// conversions, int.from_bytes / int.to_bytes, and the bytes methods. Most
// bytes methods are the str methods run on the latin-1 text of the bytes
// (one character per byte), so the two types share one implementation.
#include <algorithm>
#include <cstdio>
#include <unordered_map>

#include "core/lang/builtins.h"
#include "core/lang/interp.h"
#include "core/lang/objops.h"
#include "core/lang/strformat.h"

namespace kiln::lang {

namespace {

const std::string& self_bytes(const CallArgs& a) { return a.self.as<BytesObj>()->value; }

[[noreturn]] void raise_named(Interp& in, const char* cls, std::string msg) {
  raise_exception(in, find_builtin_class(in, cls), {make_str(std::move(msg))});
}

// The next code point of UTF-8 text s at byte i (kiln's str is valid UTF-8).
uint32_t next_cp(std::string_view s, size_t& i) {
  auto c = static_cast<unsigned char>(s[i]);
  int n = c < 0x80 ? 1 : c < 0xe0 ? 2 : c < 0xf0 ? 3 : 4;
  uint32_t cp = n == 1 ? c : n == 2 ? c & 0x1f : n == 3 ? c & 0x0f : c & 0x07;
  for (int k = 1; k < n && i + size_t(k) < s.size(); ++k) cp = (cp << 6) | (static_cast<unsigned char>(s[i + size_t(k)]) & 0x3f);
  i += size_t(n);
  return cp;
}

// A code point below U+10000 as UTF-8 (latin-1 characters and U+FFFD).
void put_utf8(std::string& out, uint32_t cp) {
  if (cp < 0x80) {
    out += char(cp);
  } else if (cp < 0x800) {
    out += char(0xc0 | (cp >> 6));
    out += char(0x80 | (cp & 0x3f));
  } else {
    out += char(0xe0 | (cp >> 12));
    out += char(0x80 | ((cp >> 6) & 0x3f));
    out += char(0x80 | (cp & 0x3f));
  }
}

// Each byte as the character of the same code point (latin-1 decoding).
std::string latin1_text(std::string_view b) {
  std::string out;
  out.reserve(b.size());
  for (unsigned char c : b) {
    if (c < 0x80) {
      out += char(c);
    } else {
      out += char(0xc0 | (c >> 6));
      out += char(0x80 | (c & 0x3f));
    }
  }
  return out;
}

enum class Codec { Utf8, Ascii, Latin1 };

Codec codec_of(Interp& in, const std::string& name) {
  std::string n = name;
  for (char& c : n) c = c == '_' ? '-' : char(std::tolower(static_cast<unsigned char>(c)));
  if (n == "utf-8" || n == "utf8" || n == "u8") return Codec::Utf8;
  if (n == "ascii" || n == "us-ascii") return Codec::Ascii;
  if (n == "latin-1" || n == "latin1" || n == "iso-8859-1" || n == "iso8859-1" || n == "l1") return Codec::Latin1;
  raise_named(in, "LookupError", "unknown encoding: " + name);
}

const char* codec_name(Codec c) { return c == Codec::Utf8 ? "utf-8" : c == Codec::Ascii ? "ascii" : "latin-1"; }

// "byte 0xe9 in position 3" or "bytes in position 0-1", as CPython words a span [lo, hi).
std::string span_text(const char* what, std::string_view b, size_t lo, size_t hi, bool is_bytes) {
  if (hi - lo == 1) {
    char buf[64];
    if (is_bytes) std::snprintf(buf, sizeof buf, "%s 0x%02x in position %zu", what, unsigned(static_cast<unsigned char>(b[lo])), lo);
    else std::snprintf(buf, sizeof buf, "%s in position %zu", what, lo);
    return buf;
  }
  return detail::cat(what, "s in position ", lo, "-", hi - 1);
}

std::string char_escape(uint32_t cp) {
  char buf[16];
  if (cp < 0x100) std::snprintf(buf, sizeof buf, "\\x%02x", cp);
  else if (cp < 0x10000) std::snprintf(buf, sizeof buf, "\\u%04x", cp);
  else std::snprintf(buf, sizeof buf, "\\U%08x", cp);
  return buf;
}

// The length of the valid UTF-8 sequence at b[i], or 0 with `reason` and the
// end of the invalid span set (the maximal invalid subpart, as CPython reports it).
size_t utf8_seq(std::string_view b, size_t i, const char*& reason, size_t& end) {
  auto c = static_cast<unsigned char>(b[i]);
  if (c < 0x80) return 1;
  int n = 0;
  unsigned lo = 0x80, hi = 0xbf;
  if (c >= 0xc2 && c <= 0xdf) n = 2;
  else if (c >= 0xe0 && c <= 0xef) n = 3, lo = c == 0xe0 ? 0xa0 : 0x80, hi = c == 0xed ? 0x9f : 0xbf;
  else if (c >= 0xf0 && c <= 0xf4) n = 4, lo = c == 0xf0 ? 0x90 : 0x80, hi = c == 0xf4 ? 0x8f : 0xbf;
  if (n == 0) {
    reason = "invalid start byte";
    end = i + 1;
    return 0;
  }
  for (int k = 1; k < n; ++k) {
    if (i + size_t(k) >= b.size()) {
      reason = "unexpected end of data";
      end = b.size();
      return 0;
    }
    auto d = static_cast<unsigned char>(b[i + size_t(k)]);
    if (d < (k == 1 ? lo : 0x80) || d > (k == 1 ? hi : 0xbf)) {
      reason = "invalid continuation byte";
      end = i + size_t(k);
      return 0;
    }
  }
  return size_t(n);
}

std::string decode_impl(Interp& in, std::string_view b, Codec codec, const std::string& errors) {
  std::string out;
  for (size_t i = 0; i < b.size();) {
    const char* reason = "ordinal not in range(128)";
    size_t end = i + 1, n = 1;
    auto c = static_cast<unsigned char>(b[i]);
    if (codec == Codec::Utf8) n = utf8_seq(b, i, reason, end);
    else if (codec == Codec::Ascii && c >= 0x80) n = 0;
    if (n > 0) {
      if (codec == Codec::Utf8) out.append(b.substr(i, n));
      else put_utf8(out, c);
      i += n;
      continue;
    }
    if (errors == "ignore") {
    } else if (errors == "replace") {
      put_utf8(out, 0xfffd);
    } else {
      raise_named(in, "UnicodeDecodeError", detail::cat("'", codec_name(codec), "' codec can't decode ",
                                                       span_text("byte", b, i, end, true), ": ", reason));
    }
    i = end;
  }
  return out;
}

std::string encode_impl(Interp& in, std::string_view s, Codec codec, const std::string& errors) {
  if (codec == Codec::Utf8) return std::string(s);
  uint32_t limit = codec == Codec::Ascii ? 0x80 : 0x100;
  std::string out;
  size_t pos = 0;  // code point index, for error messages
  for (size_t i = 0; i < s.size(); ++pos) {
    uint32_t cp = next_cp(s, i);
    if (cp < limit) {
      out += char(cp);
      continue;
    }
    if (errors == "ignore") continue;
    if (errors == "replace") {
      out += '?';
      continue;
    }
    // CPython reports the whole run of unencodable characters.
    size_t j = i, last = pos;
    uint32_t first = cp;
    while (j < s.size()) {
      size_t k = j;
      if (next_cp(s, k) < limit) break;
      j = k;
      ++last;
    }
    std::string what = last == pos ? "character '" + char_escape(first) + "' in position " + std::to_string(pos)
                                   : detail::cat("characters in position ", pos, "-", last);
    raise_named(in, "UnicodeEncodeError", detail::cat("'", codec_name(codec), "' codec can't encode ", what,
                                                     ": ordinal not in range(", limit, ")"));
  }
  return out;
}

std::string opt_str_arg(const CallArgs& a, size_t i, const char* name, const char* def, const char* fn) {
  Obj v = a.arg(i, name);
  if (v.is_none()) return def;
  if (auto* s = v.as<StrObj>()) return s->value;
  throw Error(detail::cat(fn, "() argument '", name, "' must be str, not ", type_name(v)), ErrorKind::Type);
}

// ---- methods --------------------------------------------------------------------------------
Obj bytes_decode(Interp& in, const CallArgs& a) {
  a.check("decode", 0, 2, "encoding errors");
  std::string enc = opt_str_arg(a, 0, "encoding", "utf-8", "decode");
  std::string errors = opt_str_arg(a, 1, "errors", "strict", "decode");
  return make_str(decode_impl(in, self_bytes(a), codec_of(in, enc), errors));
}

Obj bytes_hex(Interp&, const CallArgs& a) {
  a.check("hex", 0, 0);
  static const char* kDigits = "0123456789abcdef";
  std::string out;
  for (unsigned char c : self_bytes(a)) {
    out += kDigits[c >> 4];
    out += kDigits[c & 15];
  }
  return make_str(std::move(out));
}

// A str method's argument: bytes become their latin-1 text; str is refused,
// as bytes methods take bytes-like arguments only.
Obj to_text_arg(const Obj& o) {
  if (auto* b = o.as<BytesObj>()) return make_str(latin1_text(b->value));
  if (o.kind() == Kind::Str) throw Error("a bytes-like object is required, not 'str'", ErrorKind::Type);
  auto convert_items = [](const std::vector<Obj>& items) {
    std::vector<Obj> out;
    for (const Obj& x : items) out.push_back(x.kind() == Kind::Bytes ? to_text_arg(x) : x);
    return out;
  };
  if (auto* l = o.as<ListObj>()) return make_list(convert_items(l->items));  // b",".join([...])
  if (auto* t = o.as<TupleObj>()) return make_tuple(convert_items(t->items));  // startswith((b"a", b"b"))
  return o;
}

// A str method's result back as bytes (its text holds code points < 256 only).
Obj from_text_result(const Obj& r) {
  if (auto* s = r.as<StrObj>()) {
    std::string out;
    for (size_t i = 0; i < s->value.size();) out += char(next_cp(s->value, i));
    return make_bytes(std::move(out));
  }
  auto convert_items = [](const std::vector<Obj>& items) {
    std::vector<Obj> out;
    for (const Obj& x : items) out.push_back(from_text_result(x));
    return out;
  };
  if (auto* l = r.as<ListObj>()) return make_list(convert_items(l->items));
  if (auto* t = r.as<TupleObj>()) return make_tuple(convert_items(t->items));
  return r;
}

// bytes.split, .strip, .find, ...: the str method of the same name on the latin-1 text.
// bytes.join takes any iterable (a generator too) of bytes: its items are
// gathered and checked here, before str.join sees them as text.
Obj join_items(Interp& in, const Obj& iterable) {
  std::vector<Obj> items;
  extend_from_iterable(in, items, iterable);
  for (size_t i = 0; i < items.size(); ++i)
    if (items[i].kind() != Kind::Bytes)
      throw Error(detail::cat("sequence item ", i, ": expected a bytes-like object, ", type_name(items[i]), " found"),
                  ErrorKind::Type);
  return to_text_arg(make_list(std::move(items)));
}

Obj bytes_via_str(Interp& in, const CallArgs& a) {
  NativeFn fn = builtin_method_fn(Kind::Str, a.callee->name);
  if (!fn) throw Error("'bytes' object has no attribute '" + a.callee->name + "'", ErrorKind::Attribute);
  std::vector<Obj> pos;
  const bool join = a.callee->name == "join" && a.pos.size() == 1;
  for (const Obj& p : a.pos) pos.push_back(join ? join_items(in, p) : to_text_arg(p));
  std::vector<Kwarg> kw;
  for (const Kwarg& k : a.kw) kw.push_back({k.name, to_text_arg(k.value)});
  Obj self = make_str(latin1_text(self_bytes(a)));
  try {
    return from_text_result(fn(in, CallArgs{pos, kw, self, a.callee}));
  } catch (const Error& e) {
    // bytes.index words its miss differently from str.index.
    if (std::string_view(e.what()) == "substring not found") throw Error("subsection not found", e.kind());
    throw;
  }
}

}  // namespace

std::string bytes_repr(std::string_view b) {
  bool single = b.find('\'') == std::string_view::npos || b.find('"') != std::string_view::npos;
  char q = single ? '\'' : '"';
  std::string out = "b";
  out += q;
  for (unsigned char c : b) {
    if (c == '\\' || c == static_cast<unsigned char>(q)) {
      out += '\\';
      out += char(c);
    } else if (c == '\n') {
      out += "\\n";
    } else if (c == '\r') {
      out += "\\r";
    } else if (c == '\t') {
      out += "\\t";
    } else if (c < 0x20 || c >= 0x7f) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02x", unsigned(c));
      out += buf;
    } else {
      out += char(c);
    }
  }
  return out + q;
}

Obj bytes_getitem(Interp& in, const std::string& b, const Obj& key) {
  int64_t n = int64_t(b.size());
  if (auto* sl = key.as<SliceObj>()) {
    int64_t start, stop, step;
    int64_t count = slice_indices(in, *sl, n, start, stop, step);
    std::string out;
    for (int64_t i = 0, j = start; i < count; ++i, j += step) out += b[size_t(j)];
    return make_bytes(std::move(out));
  }
  if (!key.is_intlike() && key.kind() != Kind::Instance && key.kind() != Kind::Tensor)
    throw Error("byte indices must be integers or slices, not " + type_name(key), ErrorKind::Type);
  int64_t i = to_index(in, key, "an integer");
  if (i < 0) i += n;
  if (i < 0 || i >= n) throw Error("index out of range", ErrorKind::Index);
  return Obj::from_int(static_cast<unsigned char>(b[size_t(i)]));
}

bool bytes_contains(Interp& in, const std::string& b, const Obj& item) {
  if (auto* s = item.as<BytesObj>()) return b.find(s->value) != std::string::npos;
  if (item.is_intlike()) {
    int64_t v = to_index(in, item, "an integer");
    if (v < 0 || v > 255) throw Error("byte must be in range(0, 256)", ErrorKind::Value);
    return b.find(char(v)) != std::string::npos;
  }
  throw Error("a bytes-like object is required, not '" + type_name(item) + "'", ErrorKind::Type);
}

std::string decode_bytes(Interp& in, const std::string& b, const std::string& encoding, const std::string& errors) {
  return decode_impl(in, b, codec_of(in, encoding), errors);
}

Obj bytes_construct(Interp& in, const CallArgs& a) {
  a.check("bytes", 0, 3, "source encoding errors");
  Obj src = a.arg(0, "source", Obj::null());
  Obj enc = a.arg(1, "encoding");
  Obj errors = a.arg(2, "errors");
  if (src.is_null()) return make_bytes("");
  if (auto* s = src.as<StrObj>()) {
    if (enc.is_none()) throw Error("string argument without an encoding", ErrorKind::Type);
    std::string err = errors.is_none() ? "strict" : str_of(errors, "errors");
    return make_bytes(encode_impl(in, s->value, codec_of(in, str_of(enc, "encoding")), err));
  }
  if (!enc.is_none()) throw Error("encoding without a string argument", ErrorKind::Type);
  if (!errors.is_none()) throw Error("errors without a string argument", ErrorKind::Type);
  if (auto* b = src.as<BytesObj>()) return make_bytes(b->value);
  if (src.is_intlike()) {
    int64_t n = src.as_int();
    if (n < 0) throw Error("negative count", ErrorKind::Value);
    check_alloc(in, uint64_t(n), 1);
    return make_bytes(std::string(size_t(n), '\0'));
  }
  if (src.is_none() || src.is_float())
    throw Error("cannot convert '" + type_name(src) + "' object to bytes", ErrorKind::Type);
  std::vector<Obj> items;
  extend_from_iterable(in, items, src);
  std::string out;
  for (const Obj& x : items) {
    if (!x.is_intlike())
      throw Error("'" + type_name(x) + "' object cannot be interpreted as an integer", ErrorKind::Type);
    if (x.as_int() < 0 || x.as_int() > 255) throw Error("bytes must be in range(0, 256)", ErrorKind::Value);
    out += char(x.as_int());
  }
  return make_bytes(std::move(out));
}

Obj bytes_fromhex(Interp&, const CallArgs& a) {
  a.check("fromhex", 1, 1);
  const std::string& s = str_of(a.pos[0], "fromhex() argument");
  auto hex = [](char c) { return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1; };
  auto bad = [](size_t at) {
    throw Error(detail::cat("non-hexadecimal number found in fromhex() arg at position ", at), ErrorKind::Value);
  };
  std::string out;
  for (size_t i = 0; i < s.size();) {
    if (std::isspace(static_cast<unsigned char>(s[i]))) {
      ++i;
      continue;
    }
    int hi = hex(s[i]);
    if (hi < 0) bad(i);
    int lo = i + 1 < s.size() ? hex(s[i + 1]) : -1;
    if (lo < 0) bad(i + 1);
    out += char(hi * 16 + lo);
    i += 2;
  }
  return make_bytes(std::move(out));
}

namespace {
bool little_endian(const Obj& order) {
  const std::string& o = str_of(order, "byteorder");
  if (o != "little" && o != "big") throw Error("byteorder must be either 'little' or 'big'", ErrorKind::Value);
  return o == "little";
}
}  // namespace

// int.from_bytes(bytes, byteorder='big', *, signed=False), within kiln's 64-bit ints.
Obj int_from_bytes(Interp& in, const CallArgs& a) {
  a.check("from_bytes", 1, 2, "bytes byteorder signed");
  Obj src = a.arg(0, "bytes");
  std::string b;
  if (auto* x = src.as<BytesObj>()) {
    b = x->value;
  } else {
    Obj arg[1] = {src};
    b = bytes_construct(in, CallArgs{arg, {}, Obj::null(), nullptr}).as<BytesObj>()->value;
  }
  if (little_endian(a.arg(1, "byteorder", make_str("big")))) std::reverse(b.begin(), b.end());
  bool is_signed = truthy(in, a.arg(2, "signed", Obj::from_bool(false)));
  bool negative = is_signed && !b.empty() && (static_cast<unsigned char>(b[0]) & 0x80);
  // Leading sign bytes beyond 8 carry no value; anything else does not fit.
  size_t skip = 0;
  while (b.size() - skip > 8 && static_cast<unsigned char>(b[skip]) == (negative ? 0xff : 0)) ++skip;
  if (b.size() - skip > 8 || (!is_signed && b.size() - skip == 8 && (static_cast<unsigned char>(b[skip]) & 0x80)))
    throw Error("int too large to convert (kiln's ints are 64-bit)", ErrorKind::Overflow);
  uint64_t v = negative ? ~uint64_t(0) : 0;
  for (size_t i = skip; i < b.size(); ++i) v = (v << 8) | static_cast<unsigned char>(b[i]);
  return Obj::from_int(int64_t(v));
}

// int.to_bytes(length=1, byteorder='big', *, signed=False).
Obj int_to_bytes(Interp& in, const CallArgs& a) {
  a.check("to_bytes", 0, 2, "length byteorder signed");
  int64_t v = a.self.as_int();
  int64_t length = to_index(in, a.arg(0, "length", Obj::from_int(1)), "an integer");
  if (length < 0) throw Error("length argument must be non-negative", ErrorKind::Value);
  bool little = little_endian(a.arg(1, "byteorder", make_str("big")));
  bool is_signed = truthy(in, a.arg(2, "signed", Obj::from_bool(false)));
  if (v < 0 && !is_signed) throw Error("can't convert negative int to unsigned", ErrorKind::Overflow);
  bool fits = length >= 8;
  if (!fits) {
    int bits = int(length) * 8;
    fits = is_signed ? (bits > 0 && v >= -(int64_t(1) << (bits - 1)) && v < (int64_t(1) << (bits - 1))) || (bits == 0 && v == 0)
                     : (bits == 0 ? v == 0 : uint64_t(v) < (uint64_t(1) << bits));
  }
  if (!fits) throw Error("int too big to convert", ErrorKind::Overflow);
  check_alloc(in, uint64_t(length), 1);
  std::string out(size_t(length), v < 0 ? '\xff' : '\0');
  uint64_t u = uint64_t(v);
  for (int64_t i = 0; i < std::min<int64_t>(length, 8); ++i) out[size_t(length - 1 - i)] = char((u >> (8 * i)) & 0xff);
  if (little) std::reverse(out.begin(), out.end());
  return make_bytes(std::move(out));
}

// str.encode(encoding='utf-8', errors='strict').
Obj str_encode(Interp& in, const CallArgs& a) {
  a.check("encode", 0, 2, "encoding errors");
  std::string enc = opt_str_arg(a, 0, "encoding", "utf-8", "encode");
  std::string errors = opt_str_arg(a, 1, "errors", "strict", "encode");
  return make_bytes(encode_impl(in, a.self.as<StrObj>()->value, codec_of(in, enc), errors));
}

NativeFn bytes_method_fn(std::string_view name) {
  static const std::unordered_map<std::string_view, NativeFn> own = {{"decode", bytes_decode}, {"hex", bytes_hex}};
  if (auto it = own.find(name); it != own.end()) return it->second;
  // The str methods bytes share (CPython's bytes has no format, casefold, isdecimal, ...).
  static const char* const kShared[] = {
      "capitalize", "center", "count", "endswith", "expandtabs", "find", "index", "isalnum", "isalpha",
      "isascii", "isdigit", "islower", "isspace", "istitle", "isupper", "join", "ljust", "lower", "lstrip",
      "partition", "removeprefix", "removesuffix", "replace", "rfind", "rindex", "rjust", "rpartition",
      "rsplit", "rstrip", "split", "splitlines", "startswith", "strip", "swapcase", "title", "upper", "zfill"};
  for (const char* s : kShared)
    if (name == s) return builtin_method_fn(Kind::Str, name) ? bytes_via_str : nullptr;
  return nullptr;
}

}  // namespace kiln::lang

#include "core/lang/lexer.h"

#include <array>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>

#include "core/error.h"

namespace kiln::lang {

void syntax_error(const std::string& file, Pos pos, const std::string& message) {
  throw Error(message, ErrorKind::Syntax, SourceLoc{file, pos.line, pos.col});
}

bool is_keyword(std::string_view n) {
  static constexpr std::array<std::string_view, 35> kKeywords = {
      "False", "None",   "True",    "and",      "as",     "assert", "async",  "await",    "break",
      "class", "continue", "def",   "del",      "elif",   "else",   "except", "finally",  "for",
      "from",  "global", "if",      "import",   "in",     "is",     "lambda", "nonlocal", "not",
      "or",    "pass",   "raise",   "return",   "try",    "while",  "with",   "yield"};
  for (auto k : kKeywords)
    if (k == n) return true;
  return false;
}

namespace {

constexpr size_t kMaxBrackets = 200;  // CPython's tokenizer limit (MAXLEVEL)
constexpr size_t kMaxIndent = 100;    // CPython's tokenizer limit (MAXINDENT)

bool is_ident_start(unsigned char c) { return c == '_' || std::isalpha(c) || c >= 0x80; }
bool is_ident_char(unsigned char c) { return is_ident_start(c) || std::isdigit(c); }
bool is_newline(char c) { return c == '\n' || c == '\r'; }
int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

void append_utf8(std::string& out, uint32_t cp) {
  if (cp < 0x80) {
    out += char(cp);
  } else if (cp < 0x800) {
    out += char(0xC0 | (cp >> 6));
    out += char(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += char(0xE0 | (cp >> 12));
    out += char(0x80 | ((cp >> 6) & 0x3F));
    out += char(0x80 | (cp & 0x3F));
  } else {
    out += char(0xF0 | (cp >> 18));
    out += char(0x80 | ((cp >> 12) & 0x3F));
    out += char(0x80 | ((cp >> 6) & 0x3F));
    out += char(0x80 | (cp & 0x3F));
  }
}

// The length of the valid UTF-8 sequence at s[i], or 0 with `why` set.
size_t utf8_length(std::string_view s, size_t i, const char*& why) {
  auto b = static_cast<unsigned char>(s[i]);
  if (b < 0x80) return 1;
  size_t n = b >= 0xF0 ? 4 : b >= 0xE0 ? 3 : 2;
  if (b < 0xC2 || b > 0xF4) {
    why = "invalid start byte";
    return 0;
  }
  for (size_t k = 1; k < n; ++k) {
    if (i + k >= s.size()) {
      why = "unexpected end of data";
      return 0;
    }
    auto c = static_cast<unsigned char>(s[i + k]);
    // The second byte's range excludes overlong forms, surrogates and code points past U+10FFFF.
    unsigned lo = 0x80, hi = 0xBF;
    if (k == 1 && b == 0xE0) lo = 0xA0;
    if (k == 1 && b == 0xED) hi = 0x9F;
    if (k == 1 && b == 0xF0) lo = 0x90;
    if (k == 1 && b == 0xF4) hi = 0x8F;
    if (c < lo || c > hi) {
      why = "invalid continuation byte";
      return 0;
    }
  }
  return n;
}

// NUL bytes and invalid UTF-8 are rejected before tokenizing, as CPython does.
void check_encoding(std::string_view src, const std::string& file) {
  int line = 1;
  size_t line_start = 0;
  for (size_t i = 0; i < src.size();) {
    Pos pos{line, int(i - line_start + 1)};
    if (src[i] == '\0') syntax_error(file, pos, "source code cannot contain null bytes");
    if (src[i] == '\n') {
      ++line;
      line_start = i + 1;
    }
    const char* why = nullptr;
    size_t n = utf8_length(src, i, why);
    if (n == 0) {
      char hex[8];
      std::snprintf(hex, sizeof hex, "0x%02x", unsigned(static_cast<unsigned char>(src[i])));
      syntax_error(file, pos,
                   detail::cat("(unicode error) 'utf-8' codec can't decode byte ", hex, " in position ", i,
                               ": ", why));
    }
    i += n;
  }
}

class Lexer {
 public:
  Lexer(std::string_view src, const std::string& file, size_t begin, size_t end, Pos start, bool fragment)
      : src_(src), file_(file), i_(begin), end_(end), fragment_(fragment), line_(start.line),
        line_start_(begin - size_t(start.col - 1)) {}

  std::vector<Token> run() {
    try {
      while (true) {
        if (at_line_start_ && !fragment_ && brackets_.empty() && indentation()) continue;
        while (peek() == ' ' || peek() == '\t' || peek() == '\f') ++i_;
        if (i_ >= end_) break;
        one_token();
      }
      finish();
    } catch (const Error& e) {
      Token& t = emit(TokKind::Error, Pos{e.loc().line, e.loc().col}, e.what());
      t.error_kind = error_kind_;
      t.open_pos = brackets_.empty() ? Pos{} : brackets_.back().pos;
      emit(TokKind::End, t.pos);
    }
    return std::move(out_);
  }

 private:
  std::string_view src_;
  const std::string& file_;
  size_t i_, end_;
  bool fragment_;
  int line_;
  size_t line_start_;
  bool at_line_start_ = true;
  std::vector<Token> out_;
  std::vector<int> indents_{0}, alt_indents_{0};
  struct Open {
    char c;
    Pos pos;
  };
  std::vector<Open> brackets_;
  LexErrorKind error_kind_ = LexErrorKind::Token;

  Pos here() const { return {line_, int(i_ - line_start_ + 1)}; }
  char peek(size_t k = 0) const { return i_ + k < end_ ? src_[i_ + k] : '\0'; }
  [[noreturn]] void fail(Pos pos, const std::string& msg) const { syntax_error(file_, pos, msg); }

  void consume_newline() {
    if (peek() == '\r' && peek(1) == '\n') ++i_;
    ++i_;
    ++line_;
    line_start_ = i_;
  }
  Token& emit(TokKind k, Pos pos, std::string text = {}) {
    Token t;
    t.kind = k;
    t.pos = pos;
    t.text = std::move(text);
    out_.push_back(std::move(t));
    return out_.back();
  }

  // Measures a line's indentation and emits INDENT/DEDENTs; true when the
  // line was blank or a comment (consumed, no tokens).
  bool indentation() {
    int col = 0, alt = 0;
    for (; i_ < end_; ++i_) {
      char c = src_[i_];
      if (c == ' ') {
        ++col, ++alt;
      } else if (c == '\t') {
        col = (col / 8 + 1) * 8, ++alt;
      } else if (c == '\f') {
        col = alt = 0;
      } else {
        break;
      }
    }
    if (i_ >= end_) return false;
    if (peek() == '#' || is_newline(peek())) {
      while (i_ < end_ && !is_newline(peek())) ++i_;
      if (i_ < end_) consume_newline();
      return true;
    }
    at_line_start_ = false;
    const char* tab_error = "inconsistent use of tabs and spaces in indentation";
    error_kind_ = LexErrorKind::Indentation;
    if (col > indents_.back()) {
      if (alt <= alt_indents_.back()) fail(here(), tab_error);
      if (indents_.size() > kMaxIndent) fail(here(), "too many levels of indentation");
      indents_.push_back(col);
      alt_indents_.push_back(alt);
      emit(TokKind::Indent, here());
      error_kind_ = LexErrorKind::Token;
      return false;
    }
    while (col < indents_.back()) {
      indents_.pop_back();
      alt_indents_.pop_back();
      emit(TokKind::Dedent, here());
    }
    if (col != indents_.back()) fail(here(), "unindent does not match any outer indentation level");
    if (alt != alt_indents_.back()) fail(here(), tab_error);
    error_kind_ = LexErrorKind::Token;
    return false;
  }

  // Lexes one token or skips a comment / joined line; false when nothing was emitted.
  bool one_token() {
    Pos pos = here();
    auto c = static_cast<unsigned char>(peek());
    if (c == '#') {
      if (fragment_) fail(pos, "f-string expression part cannot include '#'");
      while (i_ < end_ && !is_newline(peek())) ++i_;
      return false;
    }
    if (is_newline(char(c))) {
      if (!fragment_ && brackets_.empty()) {
        emit(TokKind::Newline, pos);
        at_line_start_ = true;
      }
      consume_newline();
      return false;
    }
    if (c == '\\') {
      if (fragment_) fail(pos, "f-string expression part cannot include a backslash");
      ++i_;
      if (i_ >= end_) fail(here(), "unexpected EOF while parsing");
      if (!is_newline(peek())) fail(here(), "unexpected character after line continuation character");
      consume_newline();
      return false;
    }
    if (is_ident_start(c)) return name_or_string(pos), true;
    if (std::isdigit(c) || (c == '.' && std::isdigit(static_cast<unsigned char>(peek(1)))))
      return number(pos), true;
    if (c == '\'' || c == '"') return string(pos, false, false, false), true;
    op(pos);
    return true;
  }

  void finish() {
    error_kind_ = LexErrorKind::Unclosed;
    if (!brackets_.empty())
      fail(brackets_.back().pos, detail::cat("'", brackets_.back().c, "' was never closed"));
    if (!fragment_) {
      if (!out_.empty() && out_.back().kind != TokKind::Newline) emit(TokKind::Newline, here());
      for (size_t k = 1; k < indents_.size(); ++k) emit(TokKind::Dedent, here());
    }
    emit(TokKind::End, here());
  }

  void name_or_string(Pos pos) {
    size_t start = i_;
    while (i_ < end_ && is_ident_char(static_cast<unsigned char>(src_[i_]))) ++i_;
    std::string name(src_.substr(start, i_ - start));
    if ((peek() == '\'' || peek() == '"') && name.size() <= 2) {
      bool raw = false, fmt = false, bytes = false, ok = true;
      for (char ch : name) {
        char l = char(std::tolower(static_cast<unsigned char>(ch)));
        raw |= l == 'r', fmt |= l == 'f', bytes |= l == 'b';
        ok &= l == 'r' || l == 'f' || l == 'b' || (l == 'u' && name.size() == 1);
      }
      ok &= !(fmt && bytes) && !(name.size() == 2 && name[0] == name[1]);
      if (ok) return string(pos, raw, fmt, bytes);
    }
    emit(TokKind::Name, pos, std::move(name));
  }

  // Digits of `base` with single underscores between them; appended to `out`.
  void digits(int base, std::string& out, const char* what) {
    while (true) {
      char c = peek();
      bool is_digit = base == 16 ? hex_value(c) >= 0 : (c >= '0' && c < char('0' + base));
      if (c == '_') {
        char n = peek(1);
        bool next_digit = base == 16 ? hex_value(n) >= 0 : (n >= '0' && n < char('0' + base));
        if (!next_digit) fail(here(), detail::cat("invalid ", what, " literal"));
        ++i_;
        continue;
      }
      if (!is_digit) return;
      out += c;
      ++i_;
    }
  }

  // Up to 2**63 is read: that one value only makes sense negated (the parser
  // turns `-9223372036854775808` into INT64_MIN and rejects it elsewhere), so
  // its token carries INT64_MIN with int_min_magnitude set.
  void emit_int(const std::string& digits, int base, Pos pos) {
    uint64_t v = 0;
    const uint64_t max = uint64_t(std::numeric_limits<int64_t>::max()) + 1;
    for (char c : digits) {
      uint64_t d = uint64_t(hex_value(c));
      if (v > (max - d) / uint64_t(base)) fail(pos, "integer literal too large for kiln (ints are 64-bit)");
      v = v * uint64_t(base) + d;
    }
    Token& tk = emit(TokKind::Int, pos);
    tk.ival = int64_t(v);  // 2**63 wraps to INT64_MIN
    tk.int_min_magnitude = v == max;
  }

  // A literal glued to a following name (`1abc`) is an error, except before
  // the keywords CPython still accepts there (`1if x else 2`).
  void check_number_end(Pos pos) const {
    if (!is_ident_char(static_cast<unsigned char>(peek()))) return;
    for (std::string_view kw : {"and", "else", "for", "if", "in", "is", "not", "or"}) {
      if (src_.substr(i_, kw.size()) == kw) return;
    }
    fail(pos, "invalid decimal literal");
  }

  void number(Pos pos) {
    if (peek() == '0' && std::strchr("xXoObB", peek(1)) && peek(1) != '\0') {
      char k = char(std::tolower(static_cast<unsigned char>(peek(1))));
      int base = k == 'x' ? 16 : k == 'o' ? 8 : 2;
      const char* what = k == 'x' ? "hexadecimal" : k == 'o' ? "octal" : "binary";
      i_ += 2;
      if (peek() == '_') ++i_;
      std::string ds;
      digits(base, ds, what);
      if (base != 16 && std::isdigit(static_cast<unsigned char>(peek())))
        fail(here(), detail::cat("invalid digit '", peek(), "' in ", what, " literal"));
      if (ds.empty() || is_ident_char(static_cast<unsigned char>(peek())))
        fail(here(), detail::cat("invalid ", what, " literal"));
      emit_int(ds, base, pos);
      return;
    }
    std::string whole, text;
    digits(10, whole, "decimal");
    text = whole;
    bool is_float = false;
    if (peek() == '.') {
      ++i_;
      is_float = true;
      text += '.';
      if (std::isdigit(static_cast<unsigned char>(peek()))) digits(10, text, "decimal");
    }
    if (peek() == 'e' || peek() == 'E') {
      char n = peek(1);
      bool sign = n == '+' || n == '-';
      if (std::isdigit(static_cast<unsigned char>(sign ? peek(2) : n))) {
        is_float = true;
        text += 'e';
        if (sign) text += n;
        i_ += sign ? 2 : 1;
        digits(10, text, "decimal");
      }
    }
    const bool imag = peek() == 'j' || peek() == 'J';
    if (imag) ++i_;
    check_number_end(pos);
    if (imag) {  // leading zeros are fine here (007j), as in CPython
      Token& t = emit(TokKind::Float, pos);
      t.fval = std::strtod(text.c_str(), nullptr);
      t.imag = true;
      return;
    }
    if (is_float) {
      emit(TokKind::Float, pos).fval = std::strtod(text.c_str(), nullptr);
      return;
    }
    if (whole.size() > 1 && whole[0] == '0' && whole.find_first_not_of('0') != std::string::npos)
      fail(pos,
           "leading zeros in decimal integer literals are not permitted; use an 0o prefix for octal integers");
    emit_int(whole, 10, pos);
  }

  void string(Pos pos, bool raw, bool fmt, bool bytes) {
    char q = peek();
    bool triple = peek(1) == q && peek(2) == q;
    size_t qlen = triple ? 3 : 1;
    i_ += qlen;
    size_t body_begin = i_;
    Pos body_pos = here();
    auto unterminated = [&] {
      // At end of input, the last line is the one before a final newline.
      int line = i_ >= end_ && i_ > 0 && is_newline(src_[i_ - 1]) ? line_ - 1 : line_;
      fail(pos, detail::cat(triple ? "unterminated triple-quoted string literal" : "unterminated string literal",
                            " (detected at line ", line, ")"));
    };
    while (true) {
      if (i_ >= end_) unterminated();
      char c = src_[i_];
      if (c == '\\') {
        ++i_;
        if (i_ >= end_) unterminated();
        if (is_newline(peek())) consume_newline();
        else ++i_;
        continue;
      }
      if (is_newline(c)) {
        if (!triple) unterminated();
        consume_newline();
        continue;
      }
      if (c == q && (!triple || (peek(1) == q && peek(2) == q))) break;
      ++i_;
    }
    size_t body_end = i_;
    i_ += qlen;
    Token& t = emit(TokKind::String, pos);
    t.fstring = fmt;
    t.raw = raw;
    t.bytes = bytes;
    t.body_begin = uint32_t(body_begin);
    t.body_end = uint32_t(body_end);
    t.body_pos = body_pos;
    if (!fmt) {
      std::string_view body = src_.substr(body_begin, body_end - body_begin);
      if (bytes)
        for (char ch : body)
          if (static_cast<unsigned char>(ch) >= 0x80) fail(pos, "bytes can only contain ASCII literal characters");
      t.text = raw ? decode_raw(body) : decode_escapes(body, file_, pos, bytes);
    }
  }

  // A raw body keeps its backslashes; only line ends are normalized.
  static std::string decode_raw(std::string_view body) {
    std::string out;
    for (size_t k = 0; k < body.size(); ++k) {
      if (body[k] == '\r') {
        out += '\n';
        if (k + 1 < body.size() && body[k + 1] == '\n') ++k;
      } else {
        out += body[k];
      }
    }
    return out;
  }

  void op(Pos pos) {
    static constexpr std::array<std::string_view, 47> kOps = {
        "**=", "//=", ">>=", "<<=", "...", "**", "//", "<<", ">>", "<=", ">=", "==", "!=", "->", ":=", "+=",
        "-=",  "*=",  "/=",  "%=",  "&=",  "|=", "^=", "@=", "+",  "-",  "*",  "/",  "%",  "@",  "&",  "|",
        "^",   "~",   "<",   ">",   "(",   ")",  "[",  "]",  "{",  "}",  ",",  ":",  ".",  ";",  "="};
    for (auto o : kOps) {
      if (src_.substr(i_, o.size()) != o || i_ + o.size() > end_) continue;
      i_ += o.size();
      if (o.size() == 1) bracket(o[0], pos);
      emit(TokKind::Op, pos, std::string(o));
      return;
    }
    auto c = static_cast<unsigned char>(peek());
    if (c < 0x20 || c == 0x7f) {
      char buf[16];
      std::snprintf(buf, sizeof buf, "U+%04X", unsigned(c));
      fail(pos, detail::cat("invalid non-printable character ", buf));
    }
    fail(pos, "invalid syntax");
  }

  void bracket(char c, Pos pos) {
    if (c == '(' || c == '[' || c == '{') {
      brackets_.push_back({c, pos});
      if (brackets_.size() > kMaxBrackets) fail(pos, "too many nested parentheses");
      return;
    }
    if (c != ')' && c != ']' && c != '}') return;
    if (brackets_.empty()) fail(pos, detail::cat("unmatched '", c, "'"));
    Open open = brackets_.back();
    char want = open.c == '(' ? ')' : open.c == '[' ? ']' : '}';
    if (c != want) {
      std::string where = open.pos.line != pos.line ? detail::cat(" on line ", open.pos.line) : "";
      fail(pos, detail::cat("closing parenthesis '", c, "' does not match opening parenthesis '", open.c, "'",
                            where));
    }
    brackets_.pop_back();
  }
};

}  // namespace

// bytes: \x and octal escapes give raw bytes, and \u, \U, \N are no escapes (as in CPython).
std::string decode_escapes(std::string_view body, const std::string& file, Pos pos, bool bytes) {
  std::string out;
  size_t n = body.size();
  auto bad = [&](size_t k, const char* what) {
    syntax_error(file, pos,
                 detail::cat("(unicode error) 'unicodeescape' codec can't decode bytes in position ", out.size(),
                             "-", out.size() + k, ": ", what));
  };
  for (size_t k = 0; k < n; ++k) {
    char c = body[k];
    if (c == '\r') {
      out += '\n';
      if (k + 1 < n && body[k + 1] == '\n') ++k;
      continue;
    }
    if (c != '\\' || k + 1 >= n) {
      out += c;
      continue;
    }
    char e = body[++k];
    if (bytes && (e == 'u' || e == 'U' || e == 'N')) {
      out += '\\';
      out += e;
      continue;
    }
    switch (e) {
      case '\n': break;
      case '\r':
        if (k + 1 < n && body[k + 1] == '\n') ++k;
        break;
      case '\\': case '\'': case '"': out += e; break;
      case 'a': out += '\a'; break;
      case 'b': out += '\b'; break;
      case 'f': out += '\f'; break;
      case 'n': out += '\n'; break;
      case 'r': out += '\r'; break;
      case 't': out += '\t'; break;
      case 'v': out += '\v'; break;
      case 'N': syntax_error(file, pos, "\\N{...} escapes are not supported by kiln");
      case 'x': case 'u': case 'U': {
        size_t len = e == 'x' ? 2 : e == 'u' ? 4 : 8;
        uint32_t cp = 0;
        for (size_t d = 1; d <= len; ++d) {
          int h = k + d < n ? hex_value(body[k + d]) : -1;
          if (h < 0) bad(d, e == 'x' ? "truncated \\xXX escape" : e == 'u' ? "truncated \\uXXXX escape"
                                                                            : "truncated \\UXXXXXXXX escape");
          cp = cp * 16 + uint32_t(h);
        }
        if (cp > 0x10FFFF) bad(len, "illegal Unicode character");
        k += len;
        if (bytes) out += char(cp);
        else append_utf8(out, cp);
        break;
      }
      default:
        if (e >= '0' && e <= '7') {
          uint32_t v = uint32_t(e - '0');
          for (int d = 0; d < 2 && k + 1 < n && body[k + 1] >= '0' && body[k + 1] <= '7'; ++d)
            v = v * 8 + uint32_t(body[++k] - '0');
          if (bytes) out += char(v & 0xff);
          else append_utf8(out, v);
        } else {
          out += '\\';
          out += e;
        }
    }
  }
  return out;
}

std::vector<Token> tokenize(std::string_view source, const std::string& filename) {
  check_encoding(source, filename);
  size_t begin = source.substr(0, 3) == "\xEF\xBB\xBF" ? 3 : 0;
  Lexer lx(source, filename, begin, source.size(), Pos{1, 1}, false);
  return lx.run();
}

std::vector<Token> tokenize_fragment(std::string_view source, size_t begin, size_t end, Pos start,
                                     const std::string& filename) {
  Lexer lx(source, filename, begin, end, start, true);
  return lx.run();
}

}  // namespace kiln::lang

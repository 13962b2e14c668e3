// Source text -> tokens. Indentation becomes INDENT/DEDENT tokens (a stack of
// column widths, tabs to the next multiple of 8); newlines inside brackets and
// after a backslash are not tokens. Number and plain-string literals arrive
// decoded; f-strings arrive as the byte range of their body so the parser can
// split them and parse the embedded expressions at their true positions.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/lang/ast.h"

namespace kiln::lang {

// Error: the lexer stopped here; `text` is its message. The parser raises it
// when it reaches the token, so an earlier syntax error is reported first.
enum class TokKind : uint8_t { Name, Int, Float, String, Op, Newline, Indent, Dedent, End, Error };

// How a lexer error ranks against a parser's plain "invalid syntax" earlier
// in the file (CPython reports most tokenizer errors in preference).
enum class LexErrorKind : uint8_t { Token, Unclosed, Indentation };

struct Token {
  TokKind kind = TokKind::End;
  Pos pos;            // first character
  std::string text;   // Name: identifier; Op: operator; String: decoded value (not for f-strings)
  int64_t ival = 0;   // Int
  bool int_min_magnitude = false;  // Int literal 2**63: valid only right after a unary minus
  double fval = 0.0;  // Float
  bool imag = false;  // Float: an imaginary literal (2j): fval is its imaginary part
  // String tokens only.
  bool fstring = false;
  bool raw = false;
  bool bytes = false;  // a b"..." literal: text holds its bytes
  uint32_t body_begin = 0, body_end = 0;  // the body's byte range in the source
  Pos body_pos;                           // where the body starts
  // Error tokens only.
  LexErrorKind error_kind = LexErrorKind::Token;
  Pos open_pos;  // the unclosed bracket, for LexErrorKind::Unclosed
};

// Kiln's SyntaxError: kiln::Error(Syntax) located at file:pos.
[[noreturn]] void syntax_error(const std::string& file, Pos pos, const std::string& message);

// The whole module's tokens, ending with NEWLINE (when the last line has
// content), the closing DEDENTs and End; or, after a lexical error, with an
// Error token and End.
std::vector<Token> tokenize(std::string_view source, const std::string& filename);

// The tokens of source[begin, end), an f-string replacement field whose first
// byte is at `start`: no indentation or NEWLINE tokens, then End.
std::vector<Token> tokenize_fragment(std::string_view source, size_t begin, size_t end, Pos start,
                                     const std::string& filename);

// Decodes backslash escapes of a (non-raw) string body; errors are located at pos.
std::string decode_escapes(std::string_view body, const std::string& filename, Pos pos, bool bytes = false);

// Python's hard keywords (`if`, `None`, ...), which are never identifiers.
bool is_keyword(std::string_view name);

}  // namespace kiln::lang

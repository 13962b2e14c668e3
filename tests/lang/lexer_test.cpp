#include "core/lang/lexer.h"

#include <gtest/gtest.h>

#include "core/error.h"

namespace kiln::lang {
namespace {

// Tokens as "kind:text" words: N name, I int, F float, S string, O op, NL, IN, DE, END, ERR.
std::string lex(std::string_view src) {
  std::string out;
  for (const Token& t : tokenize(src, "t.py")) {
    if (!out.empty()) out += ' ';
    switch (t.kind) {
      case TokKind::Name: out += "N:" + t.text; break;
      case TokKind::Int: out += "I:" + std::to_string(t.ival); break;
      case TokKind::Float: out += "F:" + std::to_string(t.fval); break;
      case TokKind::String: out += std::string(t.fstring ? "FS:" : "S:") + (t.fstring ? "" : t.text); break;
      case TokKind::Op: out += "O:" + t.text; break;
      case TokKind::Newline: out += "NL"; break;
      case TokKind::Indent: out += "IN"; break;
      case TokKind::Dedent: out += "DE"; break;
      case TokKind::End: out += "END"; break;
      case TokKind::Error: out += "ERR(" + t.text + ")"; break;
    }
  }
  return out;
}

// The message and position of the Error token, or "" when lexing succeeds.
std::string lex_error(std::string_view src) {
  for (const Token& t : tokenize(src, "t.py"))
    if (t.kind == TokKind::Error) return std::to_string(t.pos.line) + ":" + std::to_string(t.pos.col) + " " + t.text;
  return "";
}

TEST(Lexer, SimpleStatement) { EXPECT_EQ(lex("x = 1 + y\n"), "N:x O:= I:1 O:+ N:y NL END"); }

TEST(Lexer, NewlineAddedAtEndOfInput) { EXPECT_EQ(lex("x"), "N:x NL END"); }

TEST(Lexer, IndentAndDedent) {
  EXPECT_EQ(lex("if a:\n    b\n    if c:\n        d\ne\n"),
            "N:if N:a O:: NL IN N:b NL N:if N:c O:: NL IN N:d NL DE DE N:e NL END");
}

TEST(Lexer, DedentsClosedAtEndOfInput) { EXPECT_EQ(lex("if a:\n  b"), "N:if N:a O:: NL IN N:b NL DE END"); }

TEST(Lexer, BlankLinesAndCommentsMakeNoTokens) {
  EXPECT_EQ(lex("a\n\n   \n# c\n  # indented comment\nb # trailing\n"), "N:a NL N:b NL END");
}

TEST(Lexer, TabsCountToMultipleOfEight) {
  // Seven spaces and a tab reach column 8 like a lone tab (no dedent), but CPython still calls the mix a TabError.
  EXPECT_EQ(lex("if a:\n       \tb\n\tc\n"),
            "N:if N:a O:: NL IN N:b NL ERR(inconsistent use of tabs and spaces in indentation) END");
  EXPECT_EQ(lex("if a:\n\tb\n\tc\n"), "N:if N:a O:: NL IN N:b NL N:c NL DE END");
}

TEST(Lexer, InconsistentTabsAreTabErrors) {
  EXPECT_EQ(lex_error("if a:\n\tb\n    \tc\n"), "3:6 inconsistent use of tabs and spaces in indentation");
}

TEST(Lexer, BadDedent) {
  EXPECT_EQ(lex_error("if a:\n    b\n  c\n"), "3:3 unindent does not match any outer indentation level");
}

TEST(Lexer, ImplicitLineJoiningInBrackets) {
  EXPECT_EQ(lex("f(a,\n  b)\n[1,\n2]\n{3:\n4}\n"),
            "N:f O:( N:a O:, N:b O:) NL O:[ I:1 O:, I:2 O:] NL O:{ I:3 O:: I:4 O:} NL END");
}

TEST(Lexer, BackslashContinuation) { EXPECT_EQ(lex("x = 1 + \\\n    2\n"), "N:x O:= I:1 O:+ I:2 NL END"); }

TEST(Lexer, BackslashErrors) {
  EXPECT_EQ(lex_error("x = \\ 1\n"), "1:6 unexpected character after line continuation character");
  EXPECT_EQ(lex_error("x = \\"), "1:6 unexpected EOF while parsing");
}

TEST(Lexer, IntegerForms) {
  EXPECT_EQ(lex("0 10 0x1F 0o17 0b101 1_000 0x_ff 00\n"), "I:0 I:10 I:31 I:15 I:5 I:1000 I:255 I:0 NL END");
  EXPECT_EQ(lex("9223372036854775807\n"), "I:9223372036854775807 NL END");
}

TEST(Lexer, IntegerErrors) {
  const char* big = "integer literal too large for kiln (ints are 64-bit)";
  // 2**63 itself lexes (the parser accepts it only negated); one more does not.
  EXPECT_EQ(lex_error("x = 9223372036854775809\n"), std::string("1:5 ") + big);
  auto edge = tokenize("9223372036854775808\n", "t.py");
  EXPECT_TRUE(edge[0].kind == TokKind::Int && edge[0].int_min_magnitude);
  EXPECT_EQ(lex_error("x = 0x10000000000000000\n"), std::string("1:5 ") + big);
  EXPECT_EQ(lex_error("x = 0123\n"),
            "1:5 leading zeros in decimal integer literals are not permitted; use an 0o prefix for octal integers");
  EXPECT_EQ(lex_error("x = 1_\n"), "1:6 invalid decimal literal");
  EXPECT_EQ(lex_error("x = 1__0\n"), "1:6 invalid decimal literal");
  EXPECT_EQ(lex_error("x = 0x\n"), "1:7 invalid hexadecimal literal");
  EXPECT_EQ(lex_error("x = 0b12\n"), "1:8 invalid digit '2' in binary literal");
  EXPECT_EQ(lex_error("x = 1abc\n"), "1:5 invalid decimal literal");
  EXPECT_EQ(lex_error("x = 1jx\n"), "1:5 invalid decimal literal");
}

TEST(Lexer, ImaginaryLiterals) {
  auto toks = tokenize("1j 1.5J 1e3j 007j .5j\n", "t.py");
  std::vector<double> want = {1.0, 1.5, 1000.0, 7.0, 0.5};
  for (size_t i = 0; i < want.size(); ++i) {
    EXPECT_EQ(toks[i].kind, TokKind::Float);
    EXPECT_TRUE(toks[i].imag);
    EXPECT_EQ(toks[i].fval, want[i]);
  }
}

TEST(Lexer, FloatForms) {
  auto toks = tokenize("1. .5 1e-3 1_000.5 2E+2 1.5e3\n", "t.py");
  std::vector<double> want = {1.0, 0.5, 1e-3, 1000.5, 200.0, 1500.0};
  for (size_t i = 0; i < want.size(); ++i) {
    ASSERT_EQ(toks[i].kind, TokKind::Float) << i;
    EXPECT_DOUBLE_EQ(toks[i].fval, want[i]) << i;
  }
}

TEST(Lexer, Strings) {
  EXPECT_EQ(lex("'a' \"b\" '''c\nd''' \"\"\"e\"\"\"\n"), "S:a S:b S:c\nd S:e NL END");
  EXPECT_EQ(lex(R"('\n\t\\\'\"\x41\u00e9\0' r'\n')"), std::string("S:\n\t\\'\"A\xc3\xa9") + '\0' + " S:\\n NL END");
  EXPECT_EQ(lex("'it''s' u'x'\n"), "S:it S:s S:x NL END");
}

TEST(Lexer, StringErrors) {
  EXPECT_EQ(lex_error("x = 'abc\ny = 1\n"), "1:5 unterminated string literal (detected at line 1)");
  EXPECT_EQ(lex_error("x = \"\"\"abc\n\n"), "1:5 unterminated triple-quoted string literal (detected at line 2)");
  EXPECT_EQ(lex_error("x = b'\xc3\xa9'\n"), "1:5 bytes can only contain ASCII literal characters");
  EXPECT_EQ(lex_error("x = '\\xZ'\n").substr(0, 40), "1:5 (unicode error) 'unicodeescape' code");
}

TEST(Lexer, FStringsKeepTheirBody) {
  auto toks = tokenize("f'a{b}c'\n", "t.py");
  ASSERT_EQ(toks[0].kind, TokKind::String);
  EXPECT_TRUE(toks[0].fstring);
  EXPECT_EQ(toks[0].body_begin, 2u);
  EXPECT_EQ(toks[0].body_end, 7u);
  EXPECT_EQ(toks[0].body_pos.col, 3);
}

TEST(Lexer, Operators) {
  EXPECT_EQ(lex("a **= b // c -> d ... e := f != g\n"), "N:a O:**= N:b O:// N:c O:-> N:d O:... N:e O::= N:f O:!= N:g NL END");
}

TEST(Lexer, BracketErrors) {
  EXPECT_EQ(lex_error("x = (1,\n2\n"), "1:5 '(' was never closed");
  EXPECT_EQ(lex_error("x = 1)\n"), "1:6 unmatched ')'");
  EXPECT_EQ(lex_error("x = [1)\n"), "1:7 closing parenthesis ')' does not match opening parenthesis '['");
  EXPECT_EQ(lex_error(std::string(300, '(')), "1:201 too many nested parentheses");
}

TEST(Lexer, Positions) {
  auto toks = tokenize("if x:\n    y = 'é' + z\n", "t.py");
  // if x : NL IN y = 'é' + z
  EXPECT_EQ(toks[5].text, "y");
  EXPECT_EQ(toks[5].pos.line, 2);
  EXPECT_EQ(toks[5].pos.col, 5);
  EXPECT_EQ(toks[9].text, "z");
  EXPECT_EQ(toks[9].pos.col, 16);  // columns count bytes, like CPython's col_offset
}

TEST(Lexer, EncodingErrorsThrow) {
  EXPECT_THROW(tokenize(std::string_view("x = 1\0", 6), "t.py"), Error);
  EXPECT_THROW(tokenize("x = '\xff'\n", "t.py"), Error);
  EXPECT_THROW(tokenize("x = '\xed\xa0\x80'\n", "t.py"), Error);
  try {
    tokenize(std::string_view("a\nbc\0", 5), "t.py");
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Syntax);
    EXPECT_EQ(e.loc().line, 2);
    EXPECT_EQ(e.loc().col, 3);
    EXPECT_STREQ(e.what(), "source code cannot contain null bytes");
  }
}

TEST(Lexer, CarriageReturnsAreNewlines) {
  EXPECT_EQ(lex("a\r\nif b:\r\n  c\r\n"), "N:a NL N:if N:b O:: NL IN N:c NL DE END");
  EXPECT_EQ(lex("a\rb\r"), "N:a NL N:b NL END");
}

}  // namespace
}  // namespace kiln::lang

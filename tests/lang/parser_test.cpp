#include "core/lang/parser.h"

#include <gtest/gtest.h>

#include "core/error.h"

namespace kiln::lang {
namespace {

std::string parse(std::string_view src, bool pos = false) { return dump(parse_module(src, "t.py"), pos); }

// "line:col message" of the SyntaxError src raises.
std::string error(std::string_view src) {
  try {
    parse_module(src, "m.py");
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Syntax);
    EXPECT_EQ(e.loc().file, "m.py");
    return std::to_string(e.loc().line) + ":" + std::to_string(e.loc().col) + " " + e.what();
  }
  return "no error";
}

TEST(Parser, Assignments) {
  EXPECT_EQ(parse("x = 1\n"), "(= x 1)");
  EXPECT_EQ(parse("x, y = y, x\n"), "(= (tuple x y) (tuple y x))");
  EXPECT_EQ(parse("a = b = c\n"), "(= a b c)");
  EXPECT_EQ(parse("a, *b = c\n"), "(= (tuple a (* b)) c)");
  EXPECT_EQ(parse("[a, (b, c)] = d\n"), "(= (list a (tuple b c)) d)");
  EXPECT_EQ(parse("x += 1\ny //= 2\nz @= w\n"), "(+= x 1)\n(//= y 2)\n(@= z w)");
  EXPECT_EQ(parse("x: int = 3\ny: float\n"), "(ann x int 3)\n(ann y float)");
  EXPECT_EQ(parse("a.b[c] = 1\n"), "(= ([] (. a b) c) 1)");
}

TEST(Parser, Precedence) {
  EXPECT_EQ(parse("-2 ** 2\n"), "(expr (u- (** 2 2)))");
  EXPECT_EQ(parse("2 ** -1\n"), "(expr (** 2 (u- 1)))");
  EXPECT_EQ(parse("a ** b ** c\n"), "(expr (** a (** b c)))");
  EXPECT_EQ(parse("a + b * c - d\n"), "(expr (- (+ a (* b c)) d))");
  EXPECT_EQ(parse("a | b ^ c & d << e + f\n"), "(expr (| a (^ b (& c (<< d (+ e f))))))");
  EXPECT_EQ(parse("not a == b and c or d\n"), "(expr (or (and (not (cmp a == b)) c) d))");
  EXPECT_EQ(parse("a if b else c if d else e\n"), "(expr (ifexp b a (ifexp d c e)))");
  EXPECT_EQ(parse("lambda x: x if y else z\n"), "(expr (lambda (args x) (ifexp y x z)))");
  EXPECT_EQ(parse("a @ b // c % d / e\n"), "(expr (/ (% (// (@ a b) c) d) e))");
  EXPECT_EQ(parse("~a.b(c)[d]\n"), "(expr (~ ([] (call (. a b) c) d)))");
}

TEST(Parser, Comparisons) {
  EXPECT_EQ(parse("a < b <= c != d\n"), "(expr (cmp a < b <= c != d))");
  EXPECT_EQ(parse("a not in b\na is not c\na in b\n"),
            "(expr (cmp a not in b))\n(expr (cmp a is not c))\n(expr (cmp a in b))");
}

TEST(Parser, Subscripts) {
  EXPECT_EQ(parse("a[1]\n"), "(expr ([] a 1))");
  EXPECT_EQ(parse("a[1:2]\n"), "(expr ([] a (: 1 2 _)))");
  EXPECT_EQ(parse("a[::2]\n"), "(expr ([] a (: _ _ 2)))");
  EXPECT_EQ(parse("a[1, :]\n"), "(expr ([] a (tuple 1 (: _ _ _))))");
  EXPECT_EQ(parse("a[..., None]\n"), "(expr ([] a (tuple ... None)))");
  EXPECT_EQ(parse("a[:, None]\n"), "(expr ([] a (tuple (: _ _ _) None)))");
  EXPECT_EQ(parse("a[i, j] = 0\n"), "(= ([] a (tuple i j)) 0)");
}

TEST(Parser, Calls) {
  EXPECT_EQ(parse("f(a, *b, k=c, **d)\n"), "(expr (call f a (* b) (kw k c) (kw ** d)))");
  EXPECT_EQ(parse("sum(x for x in y)\n"), "(expr (call sum (genexp x (for x y))))");
  EXPECT_EQ(parse("f()()\n"), "(expr (call (call f)))");
}

TEST(Parser, Displays) {
  EXPECT_EQ(parse("[1, 2,]\n(1,)\n()\n{}\n{1}\n"), "(expr (list 1 2))\n(expr (tuple 1))\n(expr (tuple))\n"
                                                    "(expr (dict))\n(expr (set 1))");
  EXPECT_EQ(parse("{'a': 1, **d}\n"), "(expr (dict 'a' 1 ** d))");
  EXPECT_EQ(parse("[x for x in a if x for y in b if y if z]\n"),
            "(expr (listcomp x (for x a (if x)) (for y b (if y) (if z))))");
  EXPECT_EQ(parse("{k: v for k, v in d}\n{x for x in s}\n(x for x in s)\n"),
            "(expr (dictcomp k v (for (tuple k v) d)))\n(expr (setcomp x (for x s)))\n(expr (genexp x (for x s)))");
}

TEST(Parser, Literals) {
  EXPECT_EQ(parse("1, 2.5, 'a' 'b', None, True, False, ...\n"),
            "(expr (tuple 1 2.5 'ab' None True False ...))");
  EXPECT_EQ(parse("1e100, 1e-5, 0.1, 100.0\n"), "(expr (tuple 1e+100 1e-05 0.1 100.0))");
}

TEST(Parser, FStrings) {
  EXPECT_EQ(parse("f'a{b!r:>{w}}c'\n"), "(expr (fstr 'a' (fv b r (fstr '>' (fv w _ _))) 'c'))");
  EXPECT_EQ(parse("f'{{x}}'\n"), "(expr (fstr '{x}'))");
  EXPECT_EQ(parse("'a' f'{b}' 'c'\n"), "(expr (fstr 'a' (fv b _ _) 'c'))");
  EXPECT_EQ(parse("f\"{d['k']:.2f}\"\n"), "(expr (fstr (fv ([] d 'k') _ (fstr '.2f'))))");
  EXPECT_EQ(parse("f'{x=}'\n"), "(expr (fstr 'x=' (fv x r _)))");
  EXPECT_EQ(parse("f'{a + b}'\n", true), "(expr@1:1 (fstr@1:1 (fv@1:1 (+@1:4 a@1:4 b@1:8) _ _)))");
  EXPECT_EQ(parse("x = f'''\n  {y}'''\n", true), "(=@1:1 x@1:1 (fstr@1:5 '\\n  '@1:5 (fv@1:5 y@2:4 _ _)))");
}

TEST(Parser, Statements) {
  EXPECT_EQ(parse("if a:\n  b\nelif c:\n  d\nelse:\n  e\n"),
            "(if a ((expr b)) ((if c ((expr d)) ((expr e)))))");
  EXPECT_EQ(parse("while a:\n  break\nelse:\n  pass\n"), "(while a ((break)) ((pass)))");
  EXPECT_EQ(parse("for i, (a, b) in x:\n  continue\n"), "(for (tuple i (tuple a b)) x ((continue)))");
  EXPECT_EQ(parse("try:\n  a\nexcept (A, B) as e:\n  b\nexcept:\n  c\nelse:\n  d\nfinally:\n  f\n"),
            "(try ((expr a)) (except (tuple A B) as e ((expr b))) (except _ ((expr c))) (else ((expr d))) "
            "(finally ((expr f))))");
  EXPECT_EQ(parse("with a as b, c:\n  pass\n"), "(with (a b) (c) ((pass)))");
  EXPECT_EQ(parse("with (a as b, c as d):\n  pass\n"), "(with (a b) (c d) ((pass)))");
  EXPECT_EQ(parse("raise X from Y\nraise\nassert a, 'm'\ndel a, b[0]\n"),
            "(raise X Y)\n(raise)\n(assert a 'm')\n(del a ([] b 0))");
  EXPECT_EQ(parse("import a.b as c, d\nfrom a.b import (x as y, z,)\n"),
            "(import (as a.b c) d)\n(from a.b (as x y) z)");
  // Relative imports keep their dots in the module name ("..." is one token).
  EXPECT_EQ(parse("from . import x\nfrom ..m.n import y\nfrom .... import z\n"),
            "(from . x)\n(from ..m.n y)\n(from .... z)");
  EXPECT_EQ(parse("global a, b\nnonlocal c\nreturn a, b\n"), "(global a b)\n(nonlocal c)\n(return (tuple a b))");
  EXPECT_EQ(parse("a; b;\n"), "(expr a)\n(expr b)");
}

TEST(Parser, Functions) {
  EXPECT_EQ(parse("def f(a, b=1, *args, c, d=2, **kw):\n  '''doc'''\n"),
            "(def f (args a b=1 *args c d=2 **kw) ((expr 'doc')))");
  EXPECT_EQ(parse("def f(x: int, *, k: str = 'a') -> Tensor:\n  pass\n"), "(def f (args x * k='a') ((pass)))");
  EXPECT_EQ(parse("@staticmethod\n@d(1)\ndef f(): pass\n"), "(def f (args) (@ staticmethod (call d 1)) ((pass)))");
  EXPECT_EQ(parse("lambda a, *b, c=1, **d: 0\n"), "(expr (lambda (args a *b c=1 **d) 0))");
  Module m = parse_module("def f():\n  'doc'\n  return 1\n", "t.py");
  EXPECT_EQ(m.body[0]->as<FunctionDef>()->docstring, "doc");
}

TEST(Parser, Classes) {
  EXPECT_EQ(parse("class A(nn.Module):\n  x = 1\n"), "(class A ((. nn Module)) ((= x 1)))");
  EXPECT_EQ(parse("class A: pass\n"), "(class A () ((pass)))");
}

TEST(Parser, YieldAndNamedExpressions) {
  EXPECT_EQ(parse("def f():\n    yield 1\n    x = yield\n    yield from g\n"),
            "(def f (args) ((expr (yield 1)) (= x (yield)) (expr (yieldfrom g))))");
  EXPECT_EQ(parse("if (n := len(a)) > 1: f(m := 2)\n"),
            "(if (cmp (namedexpr n (call len a)) > 1) ((expr (call f (namedexpr m 2)))))");
}

TEST(Parser, Positions) {
  EXPECT_EQ(parse("x = (a + b) * c.d\n", true),
            "(=@1:1 x@1:1 (*@1:5 (+@1:6 a@1:6 b@1:10) (.@1:15 c@1:15 d)))");
  EXPECT_EQ(parse("if a:\n    f(x, k=1)\n", true),
            "(if@1:1 a@1:4 ((expr@2:5 (call@2:5 f@2:5 x@2:7 (kw@2:10 k 1@2:12)))))");
  EXPECT_EQ(parse("@d\ndef f(a):\n  pass\n", true), "(def@2:1 f (args a@2:7) (@ d@1:2) ((pass@3:3)))");
  EXPECT_EQ(parse("a[1:2, ::3]\n", true),
            "(expr@1:1 ([]@1:1 a@1:1 (tuple@1:3 (:@1:3 1@1:3 2@1:5 _) (:@1:8 _ _ 3@1:10))))");
  EXPECT_EQ(parse("x = y,z\n", true), "(=@1:1 x@1:1 (tuple@1:5 y@1:5 z@1:7))");
}

TEST(Parser, UnsupportedConstructs) {
  EXPECT_EQ(error("async def f(): pass\n"), "1:1 'async' is not supported by kiln");
  EXPECT_EQ(error("x = await y\n"), "1:5 'await' is not supported by kiln");
  EXPECT_EQ(error("match x:\n    case 1:\n        pass\n"), "1:1 'match' statements are not supported by kiln");
  EXPECT_EQ(error("x := 1\n"), "1:3 invalid syntax: `name := value` needs parentheses here");
  EXPECT_EQ(error("def f(a, /): pass\n"), "1:10 positional-only parameters (/) are not supported by kiln");
  EXPECT_EQ(error("class A(metaclass=M): pass\n"),
            "1:9 keyword arguments in a class definition (metaclass=...) are not supported by kiln");
  EXPECT_EQ(error("x = b'' ''\n"), "1:5 cannot mix bytes and nonbytes literals");
  EXPECT_EQ(error("x = 99999999999999999999\n"), "1:5 integer literal too large for kiln (ints are 64-bit)");
  EXPECT_EQ(error("print 'x'\n"), "1:1 Missing parentheses in call to 'print'. Did you mean print(...)?");
  // 2j is a call of the builtin that makes complex numbers.
  EXPECT_EQ(parse("x = 2j\n"), "(= x (call __kiln_imag__ 2.0))");
  // `match` stays an ordinary name elsewhere.
  EXPECT_EQ(parse("match = 1\nmatch(x)\n"), "(= match 1)\n(expr (call match x))");
}

TEST(Parser, SyntaxErrors) {
  EXPECT_EQ(error("x = 1 1\n"), "1:7 invalid syntax");
  EXPECT_EQ(error("if x\n  pass\n"), "1:5 expected ':'");
  EXPECT_EQ(error("x = 1\n    y = 2\n"), "2:5 unexpected indent");
  EXPECT_EQ(error("x = 1\n\nif y:\npass\n"), "4:1 expected an indented block after 'if' statement on line 3");
  EXPECT_EQ(error("def f():\nreturn\n"), "2:1 expected an indented block after function definition on line 1");
  EXPECT_EQ(error("a\nb\nc\nx = 'abc\n"), "4:5 unterminated string literal (detected at line 4)");
  EXPECT_EQ(error("x = (1,\n2\n"), "1:5 '(' was never closed");
  EXPECT_EQ(error("1 = x\n"), "1:1 cannot assign to literal here. Maybe you meant '==' instead of '='?");
  EXPECT_EQ(error("for 1 in x: pass\n"), "1:5 cannot assign to literal");
  EXPECT_EQ(error("f() += 1\n"), "1:1 'function call' is an illegal expression for augmented assignment");
  EXPECT_EQ(error("del f()\n"), "1:5 cannot delete function call");
  EXPECT_EQ(error("*a = b\n"), "1:1 starred assignment target must be in a list or tuple");
  EXPECT_EQ(error("x = *a\n"), "1:5 can't use starred expression here");
  EXPECT_EQ(error("def f(a=1, b): pass\n"), "1:12 non-default argument follows default argument");
  EXPECT_EQ(error("def f(a, a): pass\n"), "1:10 duplicate argument 'a' in function definition");
  EXPECT_EQ(error("f(a=1, b)\n"), "1:8 positional argument follows keyword argument");
  EXPECT_EQ(error("try:\n  pass\nx = 1\n"), "3:1 expected 'except' or 'finally' block");
  EXPECT_EQ(error("x = 1 if 2\n"), "1:5 expected 'else' after 'if' expression");
  EXPECT_EQ(error("f'{}'\n"), "1:4 f-string: empty expression not allowed");
  EXPECT_EQ(error("f'}'\n"), "1:3 f-string: single '}' is not allowed");
  EXPECT_EQ(error("class = 1\n"), "1:7 invalid syntax");
  // A tokenizer error later in the file explains a plain syntax error better, as in CPython.
  EXPECT_EQ(error("x = 1 1\ny = 'abc\n"), "2:5 unterminated string literal (detected at line 2)");
  EXPECT_EQ(error("x = 1 1\ny = (\n"), "1:7 invalid syntax");
}

TEST(Parser, NestingIsBounded) {
  EXPECT_EQ(error("x = " + std::string(10000, '(') + "1" + std::string(10000, ')') + "\n"),
            "1:205 too many nested parentheses");
  EXPECT_EQ(error("x = " + std::string(10000, '-') + "1\n").substr(0, 40), "1:1004 expression too deeply nested (kil");
  std::string blocks;
  for (int i = 0; i < 300; ++i) blocks += std::string(size_t(i), ' ') + "if x:\n";
  EXPECT_EQ(error(blocks + std::string(300, ' ') + "pass\n"), "102:102 too many levels of indentation");
  std::string chain = "x = a";
  for (int i = 0; i < 100000; ++i) chain += " + a";
  EXPECT_NE(error(chain + "\n").find("too deeply nested"), std::string::npos);
  // Within the limits, deep code parses.
  std::string nested = parse("x = " + std::string(150, '[') + std::string(150, ']') + "\n");
  size_t lists = 0;
  for (size_t at = nested.find("(list"); at != std::string::npos; at = nested.find("(list", at + 1)) ++lists;
  EXPECT_EQ(lists, 150u);
}

TEST(Parser, BinaryInputIsASyntaxError) {
  EXPECT_EQ(error(std::string_view("x = 1\0", 6)), "1:6 source code cannot contain null bytes");
  EXPECT_EQ(error("x = '\xff'\n").substr(0, 20), "1:6 (unicode error) ");
  std::string garbage;
  for (int i = 0; i < 256; ++i) garbage += char(i * 37 + 11);
  EXPECT_NE(error(garbage), "no error");
}

TEST(Parser, HugeInputs) {
  std::string big = "x = '" + std::string(1 << 20, 'a') + "'\n";
  Module m = parse_module(big, "t.py");
  EXPECT_EQ(std::get<std::string>(m.body[0]->as<Assign>()->value->as<Constant>()->value).size(), size_t(1) << 20);
  std::string lines;
  for (int i = 0; i < 20000; ++i) lines += "y = f(x, 1)\n";
  EXPECT_EQ(parse_module(lines, "t.py").body.size(), 20000u);
}

}  // namespace
}  // namespace kiln::lang

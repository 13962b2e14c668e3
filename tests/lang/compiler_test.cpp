// Bytecode compiler tests: each compiles source text and checks the
// disassembly (opcodes, arguments, what they name), max_stack, positions and
// the errors for bad programs.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <sstream>

#include "core/lang/compiler.h"
#include "core/lang/parser.h"
#include "core/lang/peephole.h"

namespace kiln::lang {
namespace {

Obj compile(const std::string& src, bool optimize = true) {
  Module m = parse_module(src, "t.py");
  return compile_module(m, optimize);
}

// The disassembly without instruction indices and positions, one
// instruction a line with single spaces, nested code headers kept.
std::string strip(const std::string& dis) {
  std::istringstream in(dis);
  std::string line, out;
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    // "  12   3:4   LOAD_FAST ..." -> "LOAD_FAST ..." (scanned by hand: <regex>
    // trips GCC 12's -Wmaybe-uninitialized in the ASan build).
    std::istringstream fields(line);
    std::string index, pos;
    fields >> index >> pos;
    bool is_instr = !index.empty() && std::all_of(index.begin(), index.end(), ::isdigit) &&
                    pos.find(':') != std::string::npos;
    if (is_instr) {
      std::string rest;
      std::getline(fields, rest);
      line = rest.substr(std::min(rest.find_first_not_of(' '), rest.size()));
    } else if (line.rfind("code ", 0) != 0) {
      continue;  // varnames/cellvars lines: checked separately
    }
    std::string squeezed;
    for (char c : line)
      if (!(c == ' ' && !squeezed.empty() && squeezed.back() == ' ')) squeezed += c;
    out += squeezed + "\n";
  }
  return out;
}

std::string ops(const std::string& src, bool optimize = true) {
  Obj code = compile(src, optimize);
  return strip(disassemble(*code.as<Code>()));
}

// The nested Code named `qualname` (depth-first through consts).
const Code* find_code(const Code& c, const std::string& qualname) {
  if (c.qualname == qualname) return &c;
  for (const Obj& k : c.consts)
    if (const Code* n = k.as<Code>())
      if (const Code* f = find_code(*n, qualname)) return f;
  return nullptr;
}

std::string code_ops(const Obj& module, const std::string& qualname) {
  const Code* c = find_code(*module.as<Code>(), qualname);
  if (!c) return "<no code " + qualname + ">";
  std::string s = strip(disassemble(*c));
  // keep only this code's own listing (the first header and its instructions)
  size_t next = s.find("\ncode ", 1);
  return next == std::string::npos ? s : s.substr(0, next + 1);
}

// The message and location of the SyntaxError compiling `src` raises.
std::string error_of(const std::string& src) {
  try {
    compile(src);
  } catch (const Error& e) {
    return detail::cat(e.what(), " @", e.loc().line, ":", e.loc().col, e.kind() == ErrorKind::Syntax ? "" : " (not syntax)");
  }
  return "<no error>";
}

TEST(CompilerTest, ModuleNamesAndArithmetic) {
  Obj m = compile("x = 1\ny = x + 2\n");
  EXPECT_EQ(strip(disassemble(*m.as<Code>())),
            "code <module> (module, t.py:1) argcount=0 kwonly=0 max_stack=2\n"
            "LOAD_CONST 0 (1)\n"
            "STORE_NAME 0 (x)\n"
            "LOAD_NAME 0 (x)\n"
            "LOAD_CONST 1 (2)\n"
            "BINARY_OP 0 (+)\n"
            "STORE_NAME 1 (y)\n"
            "LOAD_CONST 2 (None)\n"
            "RETURN_VALUE\n");
  EXPECT_EQ(m.as<Code>()->max_stack, 2);
}


TEST(CompilerTest, FunctionParametersAndDefaults) {
  Obj m = compile("def f(a, b=2, *args, c, d=3, **kw):\n    return a + d\n");
  EXPECT_EQ(code_ops(m, "<module>"),
            "code <module> (module, t.py:1) argcount=0 kwonly=0 max_stack=3\n"
            "LOAD_CONST 0 ((2,))\n"
            "LOAD_CONST 1 ('d')\n"
            "LOAD_CONST 2 (3)\n"
            "BUILD_DICT 1\n"
            "LOAD_CONST 3 (<code f>)\n"
            "MAKE_FUNCTION 3 (defaults, kwdefaults)\n"
            "STORE_NAME 0 (f)\n"
            "LOAD_CONST 4 (None)\n"
            "RETURN_VALUE\n");
  EXPECT_EQ(code_ops(m, "f"),
            "code f (function, t.py:1) argcount=2 kwonly=2 *args **kwargs max_stack=2\n"
            "LOAD_FAST 0 (a)\n"
            "LOAD_FAST 3 (d)\n"
            "BINARY_OP 0 (+)\n"
            "RETURN_VALUE\n");
  const Code* f = find_code(*m.as<Code>(), "f");
  EXPECT_EQ(f->varnames, (std::vector<std::string>{"a", "b", "c", "d", "args", "kw"}));
  EXPECT_EQ(f->max_stack, 2);
}

TEST(CompilerTest, ClosuresCellsAndNonlocal) {
  Obj m = compile(
      "def outer(x):\n"
      "    y = 1\n"
      "    def inner():\n"
      "        nonlocal y\n"
      "        y += x\n"
      "        return y\n"
      "    return inner\n");
  const Code* outer = find_code(*m.as<Code>(), "outer");
  ASSERT_TRUE(outer);
  EXPECT_EQ(outer->cellvars, (std::vector<std::string>{"x", "y"}));
  EXPECT_EQ(outer->cell_param, (std::vector<int>{0, -1}));
  EXPECT_EQ(outer->varnames, (std::vector<std::string>{"x", "inner"}));
  EXPECT_EQ(code_ops(m, "outer"),
            "code outer (function, t.py:1) argcount=1 kwonly=0 max_stack=2\n"
            "LOAD_CONST 0 (1)\n"
            "STORE_DEREF 1 (y)\n"
            "LOAD_CLOSURE 0 (x)\n"
            "LOAD_CLOSURE 1 (y)\n"
            "BUILD_TUPLE 2\n"
            "LOAD_CONST 1 (<code outer.<locals>.inner>)\n"
            "MAKE_FUNCTION 8 (closure)\n"
            "STORE_FAST 1 (inner)\n"
            "LOAD_FAST 1 (inner)\n"
            "RETURN_VALUE\n");
  EXPECT_EQ(code_ops(m, "outer.<locals>.inner"),
            "code outer.<locals>.inner (function, t.py:3) argcount=0 kwonly=0 max_stack=2\n"
            "LOAD_DEREF 1 (y)\n"
            "LOAD_DEREF 0 (x)\n"
            "INPLACE_OP 0 (+=)\n"
            "STORE_DEREF 1 (y)\n"
            "LOAD_DEREF 1 (y)\n"
            "RETURN_VALUE\n");
  const Code* inner = find_code(*m.as<Code>(), "outer.<locals>.inner");
  EXPECT_EQ(inner->freevars, (std::vector<std::string>{"x", "y"}));
  EXPECT_NE(disassemble(*outer).find("  cellvars: x, y [x=arg 0]\n"), std::string::npos);
}

TEST(CompilerTest, FreeVariablesPassThroughIntermediateScopes) {
  Obj m = compile(
      "def f(n):\n"
      "    def g():\n"
      "        def h():\n"
      "            return n\n"
      "        return h\n"
      "    return [[i * n for i in range(j)] for j in range(n)]\n");
  const Code* g = find_code(*m.as<Code>(), "f.<locals>.g");
  ASSERT_TRUE(g);
  EXPECT_EQ(g->freevars, (std::vector<std::string>{"n"}));
  EXPECT_EQ(g->cellvars, (std::vector<std::string>{}));
  const Code* outer = find_code(*m.as<Code>(), "f.<locals>.<listcomp>");
  ASSERT_TRUE(outer);
  EXPECT_EQ(outer->freevars, (std::vector<std::string>{"n"}));
  EXPECT_EQ(code_ops(m, "f.<locals>.<listcomp>.<locals>.<listcomp>"),
            "code f.<locals>.<listcomp>.<locals>.<listcomp> (comprehension, t.py:6) argcount=1 kwonly=0 max_stack=4\n"
            "BUILD_LIST 0\n"
            "LOAD_FAST 0 (.0)\n"
            "FOR_ITER 9 (to 9)\n"
            "STORE_FAST 1 (i)\n"
            "LOAD_FAST 1 (i)\n"
            "LOAD_DEREF 0 (n)\n"
            "BINARY_OP 2 (*)\n"
            "LIST_APPEND 2\n"
            "JUMP_BACK 2 (to 2)\n"
            "RETURN_VALUE\n");
  const Code* f = find_code(*m.as<Code>(), "f");
  EXPECT_EQ(f->cellvars, (std::vector<std::string>{"n"}));
  EXPECT_EQ(f->cell_param, (std::vector<int>{0}));
}

TEST(CompilerTest, GlobalDeclarationsAndImplicitGlobals) {
  Obj m = compile(
      "def f():\n"
      "    global g\n"
      "    g = 1\n"
      "    del g\n"
      "    return h\n");
  EXPECT_EQ(code_ops(m, "f"),
            "code f (function, t.py:1) argcount=0 kwonly=0 max_stack=1\n"
            "LOAD_CONST 0 (1)\n"
            "STORE_GLOBAL 0 (g)\n"
            "DELETE_GLOBAL 0 (g)\n"
            "LOAD_GLOBAL 1 (h)\n"
            "RETURN_VALUE\n");
}

TEST(CompilerTest, ClassWithZeroArgumentSuper) {
  Obj m = compile(
      "class A(B):\n"
      "    def __init__(self, x):\n"
      "        super().__init__()\n"
      "        self.x = x\n");
  EXPECT_EQ(code_ops(m, "<module>"),
            "code <module> (module, t.py:1) argcount=0 kwonly=0 max_stack=4\n"
            "LOAD_BUILD_CLASS\n"
            "LOAD_CONST 0 (<code A>)\n"
            "MAKE_FUNCTION 0\n"
            "LOAD_CONST 1 ('A')\n"
            "LOAD_NAME 0 (B)\n"
            "CALL 3\n"
            "STORE_NAME 1 (A)\n"
            "LOAD_CONST 2 (None)\n"
            "RETURN_VALUE\n");
  EXPECT_EQ(code_ops(m, "A"),
            "code A (class, t.py:1) argcount=0 kwonly=0 max_stack=2\n"
            "LOAD_CLOSURE 0 (__class__)\n"
            "BUILD_TUPLE 1\n"
            "LOAD_CONST 0 (<code A.__init__>)\n"
            "MAKE_FUNCTION 8 (closure)\n"
            "STORE_NAME 0 (__init__)\n"
            "LOAD_CLOSURE 0 (__class__)\n"
            "RETURN_VALUE\n");
  EXPECT_EQ(code_ops(m, "A.__init__"),
            "code A.__init__ (function, t.py:2) argcount=2 kwonly=0 max_stack=3\n"
            "LOAD_GLOBAL 0 (super)\n"
            "LOAD_DEREF 0 (__class__)\n"
            "LOAD_FAST 0 (self)\n"
            "CALL 2\n"
            "LOAD_METHOD 1 (__init__)\n"
            "CALL_METHOD 0\n"
            "POP_TOP\n"
            "LOAD_FAST 1 (x)\n"
            "LOAD_FAST 0 (self)\n"
            "STORE_ATTR 2 (x)\n"
            "LOAD_CONST 0 (None)\n"
            "RETURN_VALUE\n");
  const Code* init = find_code(*m.as<Code>(), "A.__init__");
  EXPECT_EQ(init->freevars, (std::vector<std::string>{"__class__"}));
}

TEST(CompilerTest, ClassWithoutSuperReturnsNoneAndHidesNamesFromMethods) {
  Obj m = compile(
      "class C:\n"
      "    a = 1\n"
      "    b = [a for _ in r]\n"
      "    def m(self):\n"
      "        return a\n");
  EXPECT_EQ(code_ops(m, "C"),
            "code C (class, t.py:1) argcount=0 kwonly=0 max_stack=2\n"
            "LOAD_CONST 0 (1)\n"
            "STORE_NAME 0 (a)\n"
            "LOAD_CONST 1 (<code C.<listcomp>>)\n"
            "MAKE_FUNCTION 0\n"
            "LOAD_NAME 1 (r)\n"
            "GET_ITER\n"
            "CALL 1\n"
            "STORE_NAME 2 (b)\n"
            "LOAD_CONST 2 (<code C.m>)\n"
            "MAKE_FUNCTION 0\n"
            "STORE_NAME 3 (m)\n"
            "LOAD_CONST 3 (None)\n"
            "RETURN_VALUE\n");
  EXPECT_NE(code_ops(m, "C.<listcomp>").find("LOAD_GLOBAL 0 (a)\n"), std::string::npos);
  EXPECT_NE(code_ops(m, "C.m").find("LOAD_GLOBAL 0 (a)\n"), std::string::npos);
}

TEST(CompilerTest, Qualnames) {
  Obj m = compile(
      "class Net:\n"
      "    def forward(self):\n"
      "        def g():\n"
      "            return lambda: 1\n"
      "        return {x: 1 for x in self.a}\n");
  const Code& top = *m.as<Code>();
  for (const char* q : {"Net", "Net.forward", "Net.forward.<locals>.g", "Net.forward.<locals>.g.<locals>.<lambda>",
                        "Net.forward.<locals>.<dictcomp>"})
    EXPECT_TRUE(find_code(top, q)) << q;
  EXPECT_EQ(find_code(top, "Net.forward.<locals>.g.<locals>.<lambda>")->code_kind, CodeKind::Lambda);
  EXPECT_EQ(find_code(top, "Net.forward.<locals>.g.<locals>.<lambda>")->name, "<lambda>");
  EXPECT_EQ(find_code(top, "Net")->code_kind, CodeKind::Class);
}

TEST(CompilerTest, DecoratorsApplyInnermostFirst) {
  EXPECT_EQ(ops("@d1\n@d2(3)\ndef f(): pass\n"),
            "code <module> (module, t.py:1) argcount=0 kwonly=0 max_stack=3\n"
            "LOAD_NAME 0 (d1)\n"
            "LOAD_NAME 1 (d2)\n"
            "LOAD_CONST 0 (3)\n"
            "CALL 1\n"
            "LOAD_CONST 1 (<code f>)\n"
            "MAKE_FUNCTION 0\n"
            "CALL 1\n"
            "CALL 1\n"
            "STORE_NAME 2 (f)\n"
            "LOAD_CONST 2 (None)\n"
            "RETURN_VALUE\n"
            "code f (function, t.py:3) argcount=0 kwonly=0 max_stack=1\n"
            "LOAD_CONST 0 (None)\n"
            "RETURN_VALUE\n");
}

TEST(CompilerTest, LambdaWithDefaults) {
  EXPECT_EQ(ops("g = lambda x, y=1: x + y\n"),
            "code <module> (module, t.py:1) argcount=0 kwonly=0 max_stack=2\n"
            "LOAD_CONST 0 ((1,))\n"
            "LOAD_CONST 1 (<code <lambda>>)\n"
            "MAKE_FUNCTION 1 (defaults)\n"
            "STORE_NAME 0 (g)\n"
            "LOAD_CONST 2 (None)\n"
            "RETURN_VALUE\n"
            "code <lambda> (lambda, t.py:1) argcount=2 kwonly=0 max_stack=2\n"
            "LOAD_FAST 0 (x)\n"
            "LOAD_FAST 1 (y)\n"
            "BINARY_OP 0 (+)\n"
            "RETURN_VALUE\n");
}

TEST(CompilerTest, CallForms) {
  EXPECT_EQ(ops("f(1, x, k=2)\n"),
            "code <module> (module, t.py:1) argcount=0 kwonly=0 max_stack=5\n"
            "LOAD_NAME 0 (f)\n"
            "LOAD_CONST 0 (1)\n"
            "LOAD_NAME 1 (x)\n"
            "LOAD_CONST 1 (2)\n"
            "LOAD_CONST 2 (('k',))\n"
            "CALL_KW 3\n"
            "POP_TOP\n"
            "LOAD_CONST 3 (None)\n"
            "RETURN_VALUE\n");
  EXPECT_EQ(ops("o.m(1, k=2)\n"),
            "code <module> (module, t.py:1) argcount=0 kwonly=0 max_stack=5\n"
            "LOAD_NAME 0 (o)\n"
            "LOAD_METHOD 1 (m)\n"
            "LOAD_CONST 0 (1)\n"
            "LOAD_CONST 1 (2)\n"
            "LOAD_CONST 2 (('k',))\n"
            "CALL_METHOD_KW 2\n"
            "POP_TOP\n"
            "LOAD_CONST 3 (None)\n"
            "RETURN_VALUE\n");
  EXPECT_EQ(ops("f(a, *b, c, k=1, **d, j=2)\n"),
            "code <module> (module, t.py:1) argcount=0 kwonly=0 max_stack=5\n"
            "LOAD_NAME 0 (f)\n"
            "LOAD_NAME 1 (a)\n"
            "BUILD_LIST 1\n"
            "LOAD_NAME 2 (b)\n"
            "LIST_EXTEND 1\n"
            "LOAD_NAME 3 (c)\n"
            "LIST_APPEND 1\n"
            "LIST_TO_TUPLE\n"
            "LOAD_CONST 0 ('k')\n"
            "LOAD_CONST 1 (1)\n"
            "BUILD_DICT 1\n"
            "LOAD_NAME 4 (d)\n"
            "DICT_UPDATE 1\n"
            "LOAD_CONST 2 ('j')\n"
            "LOAD_CONST 3 (2)\n"
            "MAP_ADD 1\n"
            "CALL_EX 1\n"
            "POP_TOP\n"
            "LOAD_CONST 4 (None)\n"
            "RETURN_VALUE\n");
  EXPECT_EQ(ops("o.m(*a)\n"),
            "code <module> (module, t.py:1) argcount=0 kwonly=0 max_stack=3\n"
            "LOAD_NAME 0 (o)\n"
            "LOAD_ATTR 1 (m)\n"
            "BUILD_LIST 0\n"
            "LOAD_NAME 2 (a)\n"
            "LIST_EXTEND 1\n"
            "LIST_TO_TUPLE\n"
            "CALL_EX 0\n"
            "POP_TOP\n"
            "LOAD_CONST 0 (None)\n"
            "RETURN_VALUE\n");
}

TEST(CompilerTest, ListComprehensionWithCondition) {
  Obj m = compile("r = [x * 2 for x in xs if x]\n");
  EXPECT_EQ(code_ops(m, "<module>"),
            "code <module> (module, t.py:1) argcount=0 kwonly=0 max_stack=2\n"
            "LOAD_CONST 0 (<code <listcomp>>)\n"
            "MAKE_FUNCTION 0\n"
            "LOAD_NAME 0 (xs)\n"
            "GET_ITER\n"
            "CALL 1\n"
            "STORE_NAME 1 (r)\n"
            "LOAD_CONST 1 (None)\n"
            "RETURN_VALUE\n");
  EXPECT_EQ(code_ops(m, "<listcomp>"),
            "code <listcomp> (comprehension, t.py:1) argcount=1 kwonly=0 max_stack=4\n"
            "BUILD_LIST 0\n"
            "LOAD_FAST 0 (.0)\n"
            "FOR_ITER 11 (to 11)\n"
            "STORE_FAST 1 (x)\n"
            "LOAD_FAST 1 (x)\n"
            "POP_JUMP_IF_FALSE 10 (to 10)\n"
            "LOAD_FAST 1 (x)\n"
            "LOAD_CONST 0 (2)\n"
            "BINARY_OP 2 (*)\n"
            "LIST_APPEND 2\n"
            "JUMP_BACK 2 (to 2)\n"
            "RETURN_VALUE\n");
}

TEST(CompilerTest, DictSetAndGeneratorComprehensions) {
  Obj m = compile("d = {k: v for k, v in items}\ns = {x for x in a for y in x}\nt = sum(x for x in a)\n");
  EXPECT_EQ(code_ops(m, "<dictcomp>"),
            "code <dictcomp> (comprehension, t.py:1) argcount=1 kwonly=0 max_stack=4\n"
            "BUILD_DICT 0\n"
            "LOAD_FAST 0 (.0)\n"
            "FOR_ITER 10 (to 10)\n"
            "UNPACK_SEQUENCE 2\n"
            "STORE_FAST 1 (k)\n"
            "STORE_FAST 2 (v)\n"
            "LOAD_FAST 1 (k)\n"
            "LOAD_FAST 2 (v)\n"
            "MAP_ADD 2\n"
            "JUMP_BACK 2 (to 2)\n"
            "RETURN_VALUE\n");
  EXPECT_EQ(code_ops(m, "<setcomp>"),
            "code <setcomp> (comprehension, t.py:2) argcount=1 kwonly=0 max_stack=4\n"
            "BUILD_SET 0\n"
            "LOAD_FAST 0 (.0)\n"
            "FOR_ITER 12 (to 12)\n"
            "STORE_FAST 1 (x)\n"
            "LOAD_FAST 1 (x)\n"
            "GET_ITER\n"
            "FOR_ITER 11 (to 11)\n"
            "STORE_FAST 2 (y)\n"
            "LOAD_FAST 1 (x)\n"
            "SET_ADD 3\n"
            "JUMP_BACK 6 (to 6)\n"
            "JUMP_BACK 2 (to 2)\n"
            "RETURN_VALUE\n");
  EXPECT_EQ(code_ops(m, "<genexpr>"),
            "code <genexpr> (comprehension, t.py:3) argcount=1 kwonly=0 max_stack=2\n"
            "LOAD_FAST 0 (.0)\n"
            "FOR_ITER 7 (to 7)\n"
            "STORE_FAST 1 (x)\n"
            "LOAD_FAST 1 (x)\n"
            "YIELD_VALUE\n"
            "POP_TOP\n"
            "JUMP_BACK 1 (to 1)\n"
            "LOAD_CONST 0 (None)\n"
            "RETURN_VALUE\n");
}


TEST(CompilerTest, ForLoopBreakContinueElse) {
  EXPECT_EQ(ops("for i in r:\n    if i:\n        break\n    continue\nelse:\n    z = 1\n"),
            "code <module> (module, t.py:1) argcount=0 kwonly=0 max_stack=2\n"
            "LOAD_NAME 0 (r)\n"
            "GET_ITER\n"
            "FOR_ITER 9 (to 9)\n"
            "STORE_NAME 1 (i)\n"
            "LOAD_NAME 1 (i)\n"
            "POP_JUMP_IF_FALSE 8 (to 8)\n"
            "POP_TOP\n"
            "JUMP 11 (to 11)\n"
            "JUMP_BACK 2 (to 2)\n"
            "LOAD_CONST 0 (1)\n"
            "STORE_NAME 2 (z)\n"
            "LOAD_CONST 1 (None)\n"
            "RETURN_VALUE\n");
}

TEST(CompilerTest, WhileLoops) {
  EXPECT_EQ(ops("while x:\n    x -= 1\n"),
            "code <module> (module, t.py:1) argcount=0 kwonly=0 max_stack=2\n"
            "LOAD_NAME 0 (x)\n"
            "POP_JUMP_IF_FALSE 7 (to 7)\n"
            "LOAD_NAME 0 (x)\n"
            "LOAD_CONST 0 (1)\n"
            "INPLACE_OP 1 (-=)\n"
            "STORE_NAME 0 (x)\n"
            "JUMP_BACK 0 (to 0)\n"
            "LOAD_CONST 1 (None)\n"
            "RETURN_VALUE\n");
  // `while True` has no test; the loop is left only by break.
  EXPECT_EQ(ops("while True:\n    if f():\n        break\n"),
            "code <module> (module, t.py:1) argcount=0 kwonly=0 max_stack=1\n"
            "LOAD_NAME 0 (f)\n"
            "CALL 0\n"
            "POP_JUMP_IF_FALSE 4 (to 4)\n"
            "JUMP 5 (to 5)\n"
            "JUMP_BACK 0 (to 0)\n"
            "LOAD_CONST 0 (None)\n"
            "RETURN_VALUE\n");
}

TEST(CompilerTest, TryExceptElse) {
  Obj m = compile("try:\n    a()\nexcept E as e:\n    b(e)\nexcept:\n    c()\nelse:\n    d()\n");
  EXPECT_EQ(code_ops(m, "<module>"),
            "code <module> (module, t.py:1) argcount=0 kwonly=0 max_stack=3\n"
            "SETUP_FINALLY 9 (to 9)\n"
            "LOAD_NAME 0 (a)\n"
            "CALL 0\n"
            "POP_TOP\n"
            "POP_BLOCK\n"
            "LOAD_NAME 1 (d)\n"
            "CALL 0\n"
            "POP_TOP\n"
            "JUMP 26 (to 26)\n"
            "LOAD_NAME 2 (E)\n"
            "JUMP_IF_NOT_EXC_MATCH 22 (to 22)\n"
            "DUP_TOP\n"
            "STORE_NAME 3 (e)\n"
            "LOAD_NAME 4 (b)\n"
            "LOAD_NAME 3 (e)\n"
            "CALL 1\n"
            "POP_TOP\n"
            "POP_EXCEPT\n"
            "LOAD_CONST 0 (None)\n"
            "STORE_NAME 3 (e)\n"
            "DELETE_NAME 3 (e)\n"
            "JUMP 26 (to 26)\n"
            "LOAD_NAME 5 (c)\n"
            "CALL 0\n"
            "POP_TOP\n"
            "POP_EXCEPT\n"
            "LOAD_CONST 0 (None)\n"
            "RETURN_VALUE\n");
  // Without a bare except the last handler re-raises.
  EXPECT_EQ(ops("try:\n    a()\nexcept (E, F):\n    pass\n"),
            "code <module> (module, t.py:1) argcount=0 kwonly=0 max_stack=3\n"
            "SETUP_FINALLY 6 (to 6)\n"
            "LOAD_NAME 0 (a)\n"
            "CALL 0\n"
            "POP_TOP\n"
            "POP_BLOCK\n"
            "JUMP 13 (to 13)\n"
            "LOAD_NAME 1 (E)\n"
            "LOAD_NAME 2 (F)\n"
            "BUILD_TUPLE 2\n"
            "JUMP_IF_NOT_EXC_MATCH 12 (to 12)\n"
            "POP_EXCEPT\n"
            "JUMP 13 (to 13)\n"
            "RERAISE\n"
            "LOAD_CONST 0 (None)\n"
            "RETURN_VALUE\n");
}

TEST(CompilerTest, TryFinallyWithReturnCopiesTheFinallyBody) {
  Obj m = compile("def f():\n    try:\n        return g()\n    finally:\n        h()\n");
  EXPECT_EQ(code_ops(m, "f"),
            "code f (function, t.py:1) argcount=0 kwonly=0 max_stack=2\n"
            "SETUP_FINALLY 8 (to 8)\n"
            "LOAD_GLOBAL 0 (g)\n"
            "CALL 0\n"
            "POP_BLOCK\n"
            "LOAD_GLOBAL 1 (h)\n"
            "CALL 0\n"
            "POP_TOP\n"
            "RETURN_VALUE\n"
            "LOAD_GLOBAL 1 (h)\n"
            "CALL 0\n"
            "POP_TOP\n"
            "RERAISE\n");
  // A return inside the finally body drops the pending return value.
  Obj m2 = compile("def f():\n    try:\n        return 1\n    finally:\n        return 2\n");
  EXPECT_EQ(code_ops(m2, "f"),
            "code f (function, t.py:1) argcount=0 kwonly=0 max_stack=2\n"
            "SETUP_FINALLY 7 (to 7)\n"
            "LOAD_CONST 0 (1)\n"
            "POP_BLOCK\n"
            "LOAD_CONST 1 (2)\n"
            "ROT_TWO\n"
            "POP_TOP\n"
            "RETURN_VALUE\n"
            "LOAD_CONST 1 (2)\n"
            "ROT_TWO\n"
            "POP_EXCEPT\n"
            "RETURN_VALUE\n");
}

TEST(CompilerTest, TryExceptFinallyNormalPath) {
  EXPECT_EQ(ops("try:\n    a()\nexcept E:\n    b()\nfinally:\n    c()\n"),
            "code <module> (module, t.py:1) argcount=0 kwonly=0 max_stack=2\n"
            "SETUP_FINALLY 20 (to 20)\n"
            "SETUP_FINALLY 7 (to 7)\n"
            "LOAD_NAME 0 (a)\n"
            "CALL 0\n"
            "POP_TOP\n"
            "POP_BLOCK\n"
            "JUMP 15 (to 15)\n"
            "LOAD_NAME 1 (E)\n"
            "JUMP_IF_NOT_EXC_MATCH 14 (to 14)\n"
            "LOAD_NAME 2 (b)\n"
            "CALL 0\n"
            "POP_TOP\n"
            "POP_EXCEPT\n"
            "JUMP 15 (to 15)\n"
            "RERAISE\n"
            "POP_BLOCK\n"
            "LOAD_NAME 3 (c)\n"
            "CALL 0\n"
            "POP_TOP\n"
            "JUMP 24 (to 24)\n"
            "LOAD_NAME 3 (c)\n"
            "CALL 0\n"
            "POP_TOP\n"
            "RERAISE\n"
            "LOAD_CONST 0 (None)\n"
            "RETURN_VALUE\n");
}

TEST(CompilerTest, BreakOutOfHandlerAndFinallyUnwinds) {
  Obj m = compile(
      "for i in r:\n"
      "    try:\n"
      "        f()\n"
      "    except E as e:\n"
      "        break\n"
      "    finally:\n"
      "        g()\n");
  std::string code = code_ops(m, "<module>");
  // break in the handler: leave the handler (POP_EXCEPT, unbind e), run the
  // finally body inline, pop the iterator, jump past the loop.
  EXPECT_NE(code.find("JUMP_IF_NOT_EXC_MATCH 25 (to 25)\n"
                      "DUP_TOP\n"
                      "STORE_NAME 4 (e)\n"
                      "POP_EXCEPT\n"
                      "LOAD_CONST 0 (None)\n"
                      "STORE_NAME 4 (e)\n"
                      "DELETE_NAME 4 (e)\n"
                      "POP_BLOCK\n"
                      "LOAD_NAME 5 (g)\n"
                      "CALL 0\n"
                      "POP_TOP\n"
                      "POP_TOP\n"
                      "JUMP "),
            std::string::npos)
      << code;
  EXPECT_EQ(m.as<Code>()->max_stack, 3);
}

TEST(CompilerTest, ReturnFromNestedLoopsAndWith) {
  Obj m = compile("def f():\n    with m() as x:\n        for a in x:\n            return a\n");
  EXPECT_EQ(code_ops(m, "f"),
            "code f (function, t.py:1) argcount=0 kwonly=0 max_stack=3\n"
            "LOAD_GLOBAL 0 (m)\n"
            "CALL 0\n"
            "BEFORE_WITH\n"
            "STORE_FAST 0 (x)\n"
            "SETUP_FINALLY 19 (to 19)\n"
            "LOAD_FAST 0 (x)\n"
            "GET_ITER\n"
            "FOR_ITER 16 (to 16)\n"
            "STORE_FAST 1 (a)\n"
            "LOAD_FAST 1 (a)\n"
            "ROT_TWO\n"
            "POP_TOP\n"
            "POP_BLOCK\n"
            "ROT_TWO\n"
            "WITH_EXIT\n"
            "RETURN_VALUE\n"
            "POP_BLOCK\n"
            "WITH_EXIT\n"
            "JUMP 24 (to 24)\n"
            "WITH_EXCEPT\n"
            "POP_JUMP_IF_TRUE 22 (to 22)\n"
            "RERAISE\n"
            "POP_EXCEPT\n"
            "POP_TOP\n"
            "LOAD_CONST 0 (None)\n"
            "RETURN_VALUE\n");
}


TEST(CompilerTest, WithSeveralItemsNests) {
  std::string code = ops("with a as x, b:\n    f()\n");
  EXPECT_EQ(code,
            "code <module> (module, t.py:1) argcount=0 kwonly=0 max_stack=4\n"
            "LOAD_NAME 0 (a)\n"
            "BEFORE_WITH\n"
            "STORE_NAME 1 (x)\n"
            "SETUP_FINALLY 22 (to 22)\n"
            "LOAD_NAME 2 (b)\n"
            "BEFORE_WITH\n"
            "POP_TOP\n"
            "SETUP_FINALLY 14 (to 14)\n"
            "LOAD_NAME 3 (f)\n"
            "CALL 0\n"
            "POP_TOP\n"
            "POP_BLOCK\n"
            "WITH_EXIT\n"
            "JUMP 19 (to 19)\n"
            "WITH_EXCEPT\n"
            "POP_JUMP_IF_TRUE 17 (to 17)\n"
            "RERAISE\n"
            "POP_EXCEPT\n"
            "POP_TOP\n"
            "POP_BLOCK\n"
            "WITH_EXIT\n"
            "JUMP 27 (to 27)\n"
            "WITH_EXCEPT\n"
            "POP_JUMP_IF_TRUE 25 (to 25)\n"
            "RERAISE\n"
            "POP_EXCEPT\n"
            "POP_TOP\n"
            "LOAD_CONST 0 (None)\n"
            "RETURN_VALUE\n");
}

TEST(CompilerTest, RaiseAndAssert) {
  EXPECT_EQ(ops("raise E from F\nraise\n"),
            "code <module> (module, t.py:1) argcount=0 kwonly=0 max_stack=2\n"
            "LOAD_NAME 0 (E)\n"
            "LOAD_NAME 1 (F)\n"
            "RAISE_VARARGS 2\n");
  EXPECT_EQ(ops("assert x, 'm'\n"),
            "code <module> (module, t.py:1) argcount=0 kwonly=0 max_stack=2\n"
            "LOAD_NAME 0 (x)\n"
            "POP_JUMP_IF_TRUE 6 (to 6)\n"
            "LOAD_ASSERTION_ERROR\n"
            "LOAD_CONST 0 ('m')\n"
            "CALL 1\n"
            "RAISE_VARARGS 1\n"
            "LOAD_CONST 1 (None)\n"
            "RETURN_VALUE\n");
  EXPECT_EQ(ops("assert x\n"),
            "code <module> (module, t.py:1) argcount=0 kwonly=0 max_stack=1\n"
            "LOAD_NAME 0 (x)\n"
            "POP_JUMP_IF_TRUE 4 (to 4)\n"
            "LOAD_ASSERTION_ERROR\n"
            "RAISE_VARARGS 1\n"
            "LOAD_CONST 0 (None)\n"
            "RETURN_VALUE\n");
}

TEST(CompilerTest, Imports) {
  EXPECT_EQ(ops("import a.b\nimport a.b as c\nfrom m.n import x as y, z\nimport torch\n"),
            "code <module> (module, t.py:1) argcount=0 kwonly=0 max_stack=2\n"
            "IMPORT_NAME 0 (a.b)\n"
            "POP_TOP\n"
            "IMPORT_NAME 1 (a)\n"
            "STORE_NAME 1 (a)\n"
            "IMPORT_NAME 0 (a.b)\n"
            "STORE_NAME 2 (c)\n"
            "IMPORT_NAME 3 (m.n)\n"
            "IMPORT_FROM 4 (x)\n"
            "STORE_NAME 5 (y)\n"
            "IMPORT_FROM 6 (z)\n"
            "STORE_NAME 6 (z)\n"
            "POP_TOP\n"
            "IMPORT_NAME 7 (torch)\n"
            "STORE_NAME 7 (torch)\n"
            "LOAD_CONST 0 (None)\n"
            "RETURN_VALUE\n");
  EXPECT_EQ(ops("from math import *\n"),
            "code <module> (module, t.py:1) argcount=0 kwonly=0 max_stack=1\n"
            "IMPORT_NAME 0 (math)\n"
            "IMPORT_STAR\n"
            "LOAD_CONST 0 (None)\n"
            "RETURN_VALUE\n");
  Obj m = compile("def f():\n    import torch.nn as nn\n    return nn\n");
  EXPECT_EQ(code_ops(m, "f"),
            "code f (function, t.py:1) argcount=0 kwonly=0 max_stack=1\n"
            "IMPORT_NAME 0 (torch.nn)\n"
            "STORE_FAST 0 (nn)\n"
            "LOAD_FAST 0 (nn)\n"
            "RETURN_VALUE\n");
}

TEST(CompilerTest, AssignmentTargets) {
  EXPECT_EQ(ops("a, *b, c = x\n"),
            "code <module> (module, t.py:1) argcount=0 kwonly=0 max_stack=3\n"
            "LOAD_NAME 0 (x)\n"
            "UNPACK_EX 257 (1 before, 1 after)\n"
            "STORE_NAME 1 (a)\n"
            "STORE_NAME 2 (b)\n"
            "STORE_NAME 3 (c)\n"
            "LOAD_CONST 0 (None)\n"
            "RETURN_VALUE\n");
  EXPECT_EQ(ops("a = b = v\n(p, [q, o.r]) = t\n"),
            "code <module> (module, t.py:1) argcount=0 kwonly=0 max_stack=2\n"
            "LOAD_NAME 0 (v)\n"
            "DUP_TOP\n"
            "STORE_NAME 1 (a)\n"
            "STORE_NAME 2 (b)\n"
            "LOAD_NAME 3 (t)\n"
            "UNPACK_SEQUENCE 2\n"
            "STORE_NAME 4 (p)\n"
            "UNPACK_SEQUENCE 2\n"
            "STORE_NAME 5 (q)\n"
            "LOAD_NAME 6 (o)\n"
            "STORE_ATTR 7 (r)\n"
            "LOAD_CONST 0 (None)\n"
            "RETURN_VALUE\n");
  EXPECT_EQ(ops("o[i] = v\n"),
            "code <module> (module, t.py:1) argcount=0 kwonly=0 max_stack=3\n"
            "LOAD_NAME 0 (v)\n"
            "LOAD_NAME 1 (o)\n"
            "LOAD_NAME 2 (i)\n"
            "STORE_SUBSCR\n"
            "LOAD_CONST 0 (None)\n"
            "RETURN_VALUE\n");
}

TEST(CompilerTest, AugmentedAssignment) {
  EXPECT_EQ(ops("o.y *= 2\no.x[i] //= 3\n"),
            "code <module> (module, t.py:1) argcount=0 kwonly=0 max_stack=4\n"
            "LOAD_NAME 0 (o)\n"
            "DUP_TOP\n"
            "LOAD_ATTR 1 (y)\n"
            "LOAD_CONST 0 (2)\n"
            "INPLACE_OP 2 (*=)\n"
            "ROT_TWO\n"
            "STORE_ATTR 1 (y)\n"
            "LOAD_NAME 0 (o)\n"
            "LOAD_ATTR 2 (x)\n"
            "LOAD_NAME 3 (i)\n"
            "DUP_TOP_TWO\n"
            "BINARY_SUBSCR\n"
            "LOAD_CONST 1 (3)\n"
            "INPLACE_OP 4 (//=)\n"
            "ROT_THREE\n"
            "STORE_SUBSCR\n"
            "LOAD_CONST 2 (None)\n"
            "RETURN_VALUE\n");
}

TEST(CompilerTest, Delete) {
  EXPECT_EQ(ops("del a, o.x, o[1]\n"),
            "code <module> (module, t.py:1) argcount=0 kwonly=0 max_stack=2\n"
            "DELETE_NAME 0 (a)\n"
            "LOAD_NAME 1 (o)\n"
            "DELETE_ATTR 2 (x)\n"
            "LOAD_NAME 1 (o)\n"
            "LOAD_CONST 0 (1)\n"
            "DELETE_SUBSCR\n"
            "LOAD_CONST 1 (None)\n"
            "RETURN_VALUE\n");
  Obj m = compile("def f(x):\n    del x\n");
  EXPECT_NE(code_ops(m, "f").find("DELETE_FAST 0 (x)\n"), std::string::npos);
}

TEST(CompilerTest, BooleanOperatorsAndConditions) {
  EXPECT_EQ(ops("r = a and b or c\n"),
            "code <module> (module, t.py:1) argcount=0 kwonly=0 max_stack=1\n"
            "LOAD_NAME 0 (a)\n"
            "JUMP_IF_FALSE_OR_POP 3 (to 3)\n"
            "LOAD_NAME 1 (b)\n"
            "JUMP_IF_TRUE_OR_POP 5 (to 5)\n"
            "LOAD_NAME 2 (c)\n"
            "STORE_NAME 3 (r)\n"
            "LOAD_CONST 0 (None)\n"
            "RETURN_VALUE\n");
  // `not` in a condition flips the jump; `and` jumps out at the first false operand.
  EXPECT_EQ(ops("if not a and b:\n    f()\n"),
            "code <module> (module, t.py:1) argcount=0 kwonly=0 max_stack=1\n"
            "LOAD_NAME 0 (a)\n"
            "POP_JUMP_IF_TRUE 7 (to 7)\n"
            "LOAD_NAME 1 (b)\n"
            "POP_JUMP_IF_FALSE 7 (to 7)\n"
            "LOAD_NAME 2 (f)\n"
            "CALL 0\n"
            "POP_TOP\n"
            "LOAD_CONST 0 (None)\n"
            "RETURN_VALUE\n");
  EXPECT_EQ(ops("if a or b:\n    f()\nelse:\n    g()\n"),
            "code <module> (module, t.py:1) argcount=0 kwonly=0 max_stack=1\n"
            "LOAD_NAME 0 (a)\n"
            "POP_JUMP_IF_TRUE 4 (to 4)\n"
            "LOAD_NAME 1 (b)\n"
            "POP_JUMP_IF_FALSE 8 (to 8)\n"
            "LOAD_NAME 2 (f)\n"
            "CALL 0\n"
            "POP_TOP\n"
            "JUMP 11 (to 11)\n"
            "LOAD_NAME 3 (g)\n"
            "CALL 0\n"
            "POP_TOP\n"
            "LOAD_CONST 0 (None)\n"
            "RETURN_VALUE\n");
  EXPECT_EQ(ops("r = a if c else b\n"),
            "code <module> (module, t.py:1) argcount=0 kwonly=0 max_stack=1\n"
            "LOAD_NAME 0 (c)\n"
            "POP_JUMP_IF_FALSE 4 (to 4)\n"
            "LOAD_NAME 1 (a)\n"
            "JUMP 5 (to 5)\n"
            "LOAD_NAME 2 (b)\n"
            "STORE_NAME 3 (r)\n"
            "LOAD_CONST 0 (None)\n"
            "RETURN_VALUE\n");
}

TEST(CompilerTest, ChainedComparisonEvaluatesMiddleOnce) {
  EXPECT_EQ(ops("r = a < b <= c\ns = x is not None\n"),
            "code <module> (module, t.py:1) argcount=0 kwonly=0 max_stack=3\n"
            "LOAD_NAME 0 (a)\n"
            "LOAD_NAME 1 (b)\n"
            "DUP_TOP\n"
            "ROT_THREE\n"
            "COMPARE_OP 2 (<)\n"
            "JUMP_IF_FALSE_OR_POP 9 (to 9)\n"
            "LOAD_NAME 2 (c)\n"
            "COMPARE_OP 3 (<=)\n"
            "JUMP 11 (to 11)\n"
            "ROT_TWO\n"
            "POP_TOP\n"
            "STORE_NAME 3 (r)\n"
            "LOAD_NAME 4 (x)\n"
            "LOAD_CONST 0 (None)\n"
            "COMPARE_OP 7 (is not)\n"
            "STORE_NAME 5 (s)\n"
            "LOAD_CONST 0 (None)\n"
            "RETURN_VALUE\n");
}

TEST(CompilerTest, FStrings) {
  EXPECT_EQ(ops("s = f\"a{x!r:>{w}}b{y}\"\nt = f\"{z}\"\n"),
            "code <module> (module, t.py:1) argcount=0 kwonly=0 max_stack=4\n"
            "LOAD_CONST 0 ('a')\n"
            "LOAD_NAME 0 (x)\n"
            "LOAD_CONST 1 ('>')\n"
            "LOAD_NAME 1 (w)\n"
            "FORMAT_VALUE 0\n"
            "BUILD_STRING 2\n"
            "FORMAT_VALUE 6 (!r with spec)\n"
            "LOAD_CONST 2 ('b')\n"
            "LOAD_NAME 2 (y)\n"
            "FORMAT_VALUE 0\n"
            "BUILD_STRING 4\n"
            "STORE_NAME 3 (s)\n"
            "LOAD_NAME 4 (z)\n"
            "FORMAT_VALUE 0\n"
            "STORE_NAME 5 (t)\n"
            "LOAD_CONST 3 (None)\n"
            "RETURN_VALUE\n");
}

TEST(CompilerTest, SlicesAndEllipsis) {
  EXPECT_EQ(ops("y = x[1:2, ::3]\nz = x[..., i]\n"),
            "code <module> (module, t.py:1) argcount=0 kwonly=0 max_stack=5\n"
            "LOAD_NAME 0 (x)\n"
            "LOAD_CONST 0 (1)\n"
            "LOAD_CONST 1 (2)\n"
            "BUILD_SLICE 2\n"
            "LOAD_CONST 2 (None)\n"
            "LOAD_CONST 2 (None)\n"
            "LOAD_CONST 3 (3)\n"
            "BUILD_SLICE 3\n"
            "BUILD_TUPLE 2\n"
            "BINARY_SUBSCR\n"
            "STORE_NAME 1 (y)\n"
            "LOAD_NAME 0 (x)\n"
            "LOAD_GLOBAL 2 (Ellipsis)\n"
            "LOAD_NAME 3 (i)\n"
            "BUILD_TUPLE 2\n"
            "BINARY_SUBSCR\n"
            "STORE_NAME 4 (z)\n"
            "LOAD_CONST 2 (None)\n"
            "RETURN_VALUE\n");
}

TEST(CompilerTest, Displays) {
  EXPECT_EQ(ops("t = (*a, 1)\nd = {'a': 1, **e, 'b': 2}\ns = {*a, 1}\nl = [1, x]\n"),
            "code <module> (module, t.py:1) argcount=0 kwonly=0 max_stack=3\n"
            "BUILD_LIST 0\n"
            "LOAD_NAME 0 (a)\n"
            "LIST_EXTEND 1\n"
            "LOAD_CONST 0 (1)\n"
            "LIST_APPEND 1\n"
            "LIST_TO_TUPLE\n"
            "STORE_NAME 1 (t)\n"
            "LOAD_CONST 1 ('a')\n"
            "LOAD_CONST 0 (1)\n"
            "BUILD_DICT 1\n"
            "LOAD_NAME 2 (e)\n"
            "DICT_UPDATE 1\n"
            "LOAD_CONST 2 ('b')\n"
            "LOAD_CONST 3 (2)\n"
            "MAP_ADD 1\n"
            "STORE_NAME 3 (d)\n"
            "BUILD_SET 0\n"
            "LOAD_NAME 0 (a)\n"
            "GET_ITER\n"
            "FOR_ITER 22 (to 22)\n"
            "SET_ADD 2\n"
            "JUMP_BACK 19 (to 19)\n"
            "LOAD_CONST 0 (1)\n"
            "SET_ADD 1\n"
            "STORE_NAME 4 (s)\n"
            "LOAD_CONST 0 (1)\n"
            "LOAD_NAME 5 (x)\n"
            "BUILD_LIST 2\n"
            "STORE_NAME 6 (l)\n"
            "LOAD_CONST 4 (None)\n"
            "RETURN_VALUE\n");
}


TEST(FoldConstantsTest, BeforeAndAfter) {
  Obj m = compile("x = 1 + 2 * 3\n", false);
  Code& c = *m.as<Code>();
  EXPECT_EQ(strip(disassemble(c)),
            "code <module> (module, t.py:1) argcount=0 kwonly=0 max_stack=3\n"
            "LOAD_CONST 0 (1)\n"
            "LOAD_CONST 1 (2)\n"
            "LOAD_CONST 2 (3)\n"
            "BINARY_OP 2 (*)\n"
            "BINARY_OP 0 (+)\n"
            "STORE_NAME 0 (x)\n"
            "LOAD_CONST 3 (None)\n"
            "RETURN_VALUE\n");
  fold_constants(c);
  EXPECT_EQ(strip(disassemble(c)),
            "code <module> (module, t.py:1) argcount=0 kwonly=0 max_stack=3\n"
            "NOP\n"
            "NOP\n"
            "NOP\n"
            "NOP\n"
            "LOAD_CONST 0 (7)\n"
            "STORE_NAME 0 (x)\n"
            "LOAD_CONST 1 (None)\n"
            "RETURN_VALUE\n");
  optimize_jumps(c);
  c.max_stack = compute_max_stack(c);
  EXPECT_EQ(strip(disassemble(c)),
            "code <module> (module, t.py:1) argcount=0 kwonly=0 max_stack=1\n"
            "LOAD_CONST 0 (7)\n"
            "STORE_NAME 0 (x)\n"
            "LOAD_CONST 1 (None)\n"
            "RETURN_VALUE\n");
}

// The value `expr` folds to, or "not folded".
std::string folded(const std::string& expr) {
  Obj m = compile("x = " + expr + "\n");
  const Code& c = *m.as<Code>();
  if (c.code.size() != 4 || c.code[0].op() != Op::LOAD_CONST) return "not folded";
  std::string s = strip(disassemble(c));
  size_t open = s.find('(', s.find("LOAD_CONST"));
  return s.substr(open + 1, s.find(")\n", open) - open - 1);
}

TEST(FoldConstantsTest, PythonNumericSemantics) {
  EXPECT_EQ(folded("-7 // 2"), "-4");
  EXPECT_EQ(folded("-7 % 2"), "1");
  EXPECT_EQ(folded("7 % -3"), "-2");
  EXPECT_EQ(folded("7.5 // -2"), "-4.0");
  EXPECT_EQ(folded("-7.5 % 2"), "0.5");
  EXPECT_EQ(folded("2 ** -1"), "0.5");
  EXPECT_EQ(folded("2 ** 62"), "4611686018427387904");
  EXPECT_EQ(folded("3 / 2"), "1.5");
  EXPECT_EQ(folded("1 + 2.5"), "3.5");
  EXPECT_EQ(folded("-(3)"), "-3");
  EXPECT_EQ(folded("~5"), "-6");
  EXPECT_EQ(folded("1 << 4 | 1"), "17");
  EXPECT_EQ(folded("True + 1"), "2");
  EXPECT_EQ(folded("(1, -2, (3.0, 'a'))"), "(1, -2, (3.0, 'a'))");
  EXPECT_EQ(folded("()"), "()");
  // Left to the VM: errors, overflow, huge powers, non-numbers.
  EXPECT_EQ(folded("1 / 0"), "not folded");
  EXPECT_EQ(folded("1 // 0"), "not folded");
  EXPECT_EQ(folded("5 % 0.0"), "not folded");
  EXPECT_EQ(folded("0 ** -1"), "not folded");
  EXPECT_EQ(folded("2 ** 63"), "not folded");
  EXPECT_EQ(folded("2 ** 100000000"), "not folded");
  EXPECT_EQ(folded("9223372036854775807 + 1"), "not folded");
  EXPECT_EQ(folded("(-2.0) ** 0.5"), "not folded");
  EXPECT_EQ(folded("10.0 ** 400"), "not folded");
  EXPECT_EQ(folded("'a' + 'b'"), "not folded");
  EXPECT_EQ(folded("True & False"), "not folded");
  EXPECT_EQ(folded("[1, 2]"), "not folded");
}

TEST(FoldConstantsTest, DoesNotFoldAcrossJumpTargets) {
  // `(a or 1) + 2`: the + has a constant operand only on one path.
  Obj m = compile("x = (a or 1) + 2\n");
  EXPECT_EQ(strip(disassemble(*m.as<Code>())),
            "code <module> (module, t.py:1) argcount=0 kwonly=0 max_stack=2\n"
            "LOAD_NAME 0 (a)\n"
            "JUMP_IF_TRUE_OR_POP 3 (to 3)\n"
            "LOAD_CONST 0 (1)\n"
            "LOAD_CONST 1 (2)\n"
            "BINARY_OP 0 (+)\n"
            "STORE_NAME 1 (x)\n"
            "LOAD_CONST 2 (None)\n"
            "RETURN_VALUE\n");
}

TEST(PeepholeTest, ThreadsJumpsToJumps) {
  const std::string src = "if a:\n    if b:\n        x = 1\nelse:\n    y = 2\n";
  EXPECT_EQ(ops(src, false),
            "code <module> (module, t.py:1) argcount=0 kwonly=0 max_stack=1\n"
            "LOAD_NAME 0 (a)\n"
            "POP_JUMP_IF_FALSE 7 (to 7)\n"
            "LOAD_NAME 1 (b)\n"
            "POP_JUMP_IF_FALSE 6 (to 6)\n"
            "LOAD_CONST 0 (1)\n"
            "STORE_NAME 2 (x)\n"
            "JUMP 9 (to 9)\n"
            "LOAD_CONST 1 (2)\n"
            "STORE_NAME 3 (y)\n"
            "LOAD_CONST 2 (None)\n"
            "RETURN_VALUE\n");
  EXPECT_EQ(ops(src, true),
            "code <module> (module, t.py:1) argcount=0 kwonly=0 max_stack=1\n"
            "LOAD_NAME 0 (a)\n"
            "POP_JUMP_IF_FALSE 7 (to 7)\n"
            "LOAD_NAME 1 (b)\n"
            "POP_JUMP_IF_FALSE 9 (to 9)\n"
            "LOAD_CONST 0 (1)\n"
            "STORE_NAME 2 (x)\n"
            "JUMP 9 (to 9)\n"
            "LOAD_CONST 1 (2)\n"
            "STORE_NAME 3 (y)\n"
            "LOAD_CONST 2 (None)\n"
            "RETURN_VALUE\n");
}

TEST(PeepholeTest, DropsUnreachableCodeAndRemapsJumps) {
  const std::string src = "def f(a):\n    while a:\n        return 1\n        a = 2\n    return 3\n    a = 4\n";
  Obj before = compile(src, false), after = compile(src, true);
  EXPECT_EQ(code_ops(before, "f"),
            "code f (function, t.py:1) argcount=1 kwonly=0 max_stack=1\n"
            "LOAD_FAST 0 (a)\n"
            "POP_JUMP_IF_FALSE 7 (to 7)\n"
            "LOAD_CONST 0 (1)\n"
            "RETURN_VALUE\n"
            "LOAD_CONST 1 (2)\n"
            "STORE_FAST 0 (a)\n"
            "JUMP_BACK 0 (to 0)\n"
            "LOAD_CONST 2 (3)\n"
            "RETURN_VALUE\n"
            "LOAD_CONST 3 (4)\n"
            "STORE_FAST 0 (a)\n"
            "LOAD_CONST 4 (None)\n"
            "RETURN_VALUE\n");
  EXPECT_EQ(code_ops(after, "f"),
            "code f (function, t.py:1) argcount=1 kwonly=0 max_stack=1\n"
            "LOAD_FAST 0 (a)\n"
            "POP_JUMP_IF_FALSE 4 (to 4)\n"
            "LOAD_CONST 0 (1)\n"
            "RETURN_VALUE\n"
            "LOAD_CONST 1 (3)\n"
            "RETURN_VALUE\n");
  const Code* f = find_code(*after.as<Code>(), "f");
  EXPECT_EQ(f->positions.size(), f->code.size());
  EXPECT_EQ(f->positions[4].line, 5);
}

TEST(PeepholeTest, HandBuiltCodeNopsAndJumpChains) {
  Obj obj = make<Code>();
  Code& c = *obj.as<Code>();
  c.qualname = "h";
  c.consts = {Obj::from_int(1)};
  auto add = [&](Op op, uint32_t arg, int line) {
    c.code.emplace_back(op, arg);
    c.positions.push_back(Pos{line, 1});
  };
  add(Op::LOAD_CONST, 0, 1);         // 0
  add(Op::POP_JUMP_IF_FALSE, 3, 1);  // 1 -> 3 -> 5 -> 6
  add(Op::NOP, 0, 2);                // 2
  add(Op::JUMP, 5, 3);               // 3
  add(Op::LOAD_CONST, 0, 4);         // 4: unreachable
  add(Op::JUMP, 6, 5);               // 5
  add(Op::LOAD_CONST, 0, 6);         // 6
  add(Op::RETURN_VALUE, 0, 6);       // 7
  optimize_jumps(c);
  c.max_stack = compute_max_stack(c);
  EXPECT_EQ(strip(disassemble(c)),
            "code h (function, :0) argcount=0 kwonly=0 max_stack=1\n"
            "LOAD_CONST 0 (1)\n"
            "POP_JUMP_IF_FALSE 2 (to 2)\n"
            "LOAD_CONST 0 (1)\n"
            "RETURN_VALUE\n");
  EXPECT_EQ(c.positions[2].line, 6);
}

TEST(CompilerTest, PositionsOfCallsAndImplicitReturn) {
  Obj m = compile("x = 1\nf(a,\n  b)\n");
  const Code& c = *m.as<Code>();
  std::string dis = disassemble(c);
  // index, line:col, opcode
  EXPECT_NE(dis.find("   2     2:1  LOAD_NAME"), std::string::npos) << dis;
  EXPECT_NE(dis.find("   4     3:3  LOAD_NAME"), std::string::npos) << dis;
  EXPECT_NE(dis.find("   5     2:1  CALL"), std::string::npos) << dis;
  ASSERT_EQ(c.code.back().op(), Op::RETURN_VALUE);
  EXPECT_EQ(c.positions.back().line, 2);  // the last statement's line
  EXPECT_EQ(c.positions.size(), c.code.size());
  Obj m2 = compile("def f():\n    a = 1\n    b = 2\n");
  const Code* f = find_code(*m2.as<Code>(), "f");
  EXPECT_EQ(f->positions.back().line, 3);
  EXPECT_EQ(f->firstline, 1);
}

TEST(CompilerTest, MaxStackOfDeepExpressions) {
  Obj m = compile("x = [a, [b, [c, [d, e]]]]\n");
  EXPECT_EQ(m.as<Code>()->max_stack, 5);
  Obj m2 = compile("f(a, g(b, h(c, d)))\n");
  EXPECT_EQ(m2.as<Code>()->max_stack, 7);
}


TEST(CompilerErrorsTest, MisplacedStatements) {
  EXPECT_EQ(error_of("return 1\n"), "'return' outside function @1:1");
  EXPECT_EQ(error_of("yield 1\n"), "'yield' outside function @1:1");
  EXPECT_EQ(error_of("class C:\n    yield 1\n"), "'yield' outside function @2:5");
  EXPECT_EQ(error_of("f = lambda: (yield)\n"), "'yield' inside a lambda is not supported by kiln @1:14");
  EXPECT_EQ(error_of("x = [(yield) for i in y]\n"), "'yield' inside a comprehension @1:7");
  EXPECT_EQ(error_of("x = [y for i in z if (y := i)]\n"),
            "assignment expressions (:=) inside comprehensions are not supported by kiln @1:23");
  EXPECT_EQ(error_of("class C:\n    return 1\n"), "'return' outside function @2:5");
  EXPECT_EQ(error_of("break\n"), "'break' outside loop @1:1");
  EXPECT_EQ(error_of("continue\n"), "'continue' not properly in loop @1:1");
  EXPECT_EQ(error_of("for x in y:\n    def f():\n        break\n"), "'break' outside loop @3:9");
  EXPECT_EQ(error_of("def f():\n    from m import *\n"), "import * only allowed at module level @2:19");
  EXPECT_EQ(error_of("class C:\n    from m import *\n"), "import * only allowed at module level @2:19");
}

TEST(CompilerErrorsTest, Declarations) {
  EXPECT_EQ(error_of("nonlocal x\n"), "nonlocal declaration not allowed at module level @1:1");
  EXPECT_EQ(error_of("def f():\n    nonlocal x\n"), "no binding for nonlocal 'x' found @2:5");
  EXPECT_EQ(error_of("x = 1\ndef f():\n    nonlocal x\n"), "no binding for nonlocal 'x' found @3:5");
  EXPECT_EQ(error_of("def f():\n    print(x)\n    global x\n"), "name 'x' is used prior to global declaration @3:5");
  EXPECT_EQ(error_of("def f():\n    x = 1\n    global x\n"),
            "name 'x' is assigned to before global declaration @3:5");
  EXPECT_EQ(error_of("def f(x):\n    global x\n"), "name 'x' is parameter and global @2:5");
  EXPECT_EQ(error_of("def f(x):\n    nonlocal x\n"), "name 'x' is parameter and nonlocal @2:5");
  EXPECT_EQ(error_of("def g():\n    x = 1\n    def f():\n        global x\n        nonlocal x\n"),
            "name 'x' is nonlocal and global @5:9");
  EXPECT_EQ(error_of("def f(a, b, a):\n    pass\n"), "duplicate argument 'a' in function definition @1:13");
  EXPECT_EQ(error_of("f = lambda a, *a: 0\n"), "duplicate argument 'a' in function definition @1:16");
  // A class scope does not bind for nonlocal in its methods.
  EXPECT_EQ(error_of("class C:\n    x = 1\n    def f(self):\n        nonlocal x\n"),
            "no binding for nonlocal 'x' found @4:9");
}

TEST(CompilerErrorsTest, AssignmentTargets) {
  EXPECT_EQ(error_of("a, *b, *c = x\n"), "multiple starred expressions in assignment @1:1");
  EXPECT_EQ(error_of("*a = x\n"), "starred assignment target must be in a list or tuple @1:1");
  EXPECT_EQ(error_of("f(a=1, a=2)\n"), "keyword argument repeated: a @1:8");
  EXPECT_EQ(error_of("x = *a\n"), "can't use starred expression here @1:5");
}

// Errors the parser may already reject; the compiler reports them too when
// handed such an AST.
TEST(CompilerErrorsTest, HandBuiltBadTargets) {
  auto assign_to = [](ExprP target) {
    Module m;
    m.filename = "t.py";
    auto a = std::make_unique<Assign>(Pos{1, 1});
    a->targets.push_back(std::move(target));
    auto v = std::make_unique<Constant>(Pos{1, 9});
    v->value = int64_t(1);
    a->value = std::move(v);
    m.body.push_back(std::move(a));
    try {
      compile_module(m);
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string("<no error>");
  };
  auto call = std::make_unique<Call>(Pos{1, 1});
  auto fn = std::make_unique<Name>(Pos{1, 1});
  fn->id = "f";
  call->func = std::move(fn);
  EXPECT_EQ(assign_to(std::move(call)), "cannot assign to function call here. Maybe you meant '==' instead of '='?");
  auto lit = std::make_unique<Constant>(Pos{1, 1});
  lit->value = int64_t(1);
  EXPECT_EQ(assign_to(std::move(lit)), "cannot assign to literal here. Maybe you meant '==' instead of '='?");
  auto none = std::make_unique<Constant>(Pos{1, 1});
  EXPECT_EQ(assign_to(std::move(none)), "cannot assign to None");
}

TEST(CompilerErrorsTest, DeepNestingIsAnErrorNotACrash) {
  // Built by hand: the parser would refuse this depth first.
  Module m;
  m.filename = "t.py";
  ExprP e = std::make_unique<Name>(Pos{1, 1});
  e->as<Name>()->id = "x";
  for (int i = 0; i < 5000; ++i) {
    auto u = std::make_unique<UnaryOp>(Pos{1, 1});
    u->op = UnaryOpKind::USub;
    u->operand = std::move(e);
    e = std::move(u);
  }
  auto stmt = std::make_unique<ExprStmt>(Pos{1, 1});
  stmt->value = std::move(e);
  m.body.push_back(std::move(stmt));
  try {
    compile_module(m);
    ADD_FAILURE() << "no error";
  } catch (const Error& err) {
    EXPECT_EQ(err.kind(), ErrorKind::Recursion);
    EXPECT_STREQ(err.what(), "maximum recursion depth exceeded during compilation");
  }
  // Unwind the chain iteratively so the test itself does not recurse 5000 deep.
  ExprP cur = std::move(m.body[0]->as<ExprStmt>()->value);
  while (auto* u = cur ? cur->as<UnaryOp>() : nullptr) {
    ExprP next = std::move(u->operand);
    cur = std::move(next);
  }
}

TEST(CompilerTest, ModerateNestingCompiles) {
  std::string src = "x = ";
  for (int i = 0; i < 50; ++i) src += "(a + ";
  src += "1";
  for (int i = 0; i < 50; ++i) src += ")";
  Obj m = compile(src + "\n");
  EXPECT_EQ(m.as<Code>()->max_stack, 51);
}


TEST(CompilerTest, ClassInsideFunctionSeesEnclosingLocalsThroughCells) {
  Obj m = compile(
      "def f(n):\n"
      "    class K:\n"
      "        size = n\n"
      "        def get(self):\n"
      "            return n\n"
      "    return K\n");
  const Code* k = find_code(*m.as<Code>(), "f.<locals>.K");
  ASSERT_TRUE(k);
  EXPECT_EQ(k->freevars, (std::vector<std::string>{"n"}));
  EXPECT_EQ(code_ops(m, "f.<locals>.K"),
            "code f.<locals>.K (class, t.py:2) argcount=0 kwonly=0 max_stack=2\n"
            "LOAD_DEREF 0 (n)\n"
            "STORE_NAME 0 (size)\n"
            "LOAD_CLOSURE 0 (n)\n"
            "BUILD_TUPLE 1\n"
            "LOAD_CONST 0 (<code f.<locals>.K.get>)\n"
            "MAKE_FUNCTION 8 (closure)\n"
            "STORE_NAME 1 (get)\n"
            "LOAD_CONST 1 (None)\n"
            "RETURN_VALUE\n");
  EXPECT_EQ(code_ops(m, "f"),
            "code f (function, t.py:1) argcount=1 kwonly=0 max_stack=3\n"
            "LOAD_BUILD_CLASS\n"
            "LOAD_CLOSURE 0 (n)\n"
            "BUILD_TUPLE 1\n"
            "LOAD_CONST 0 (<code f.<locals>.K>)\n"
            "MAKE_FUNCTION 8 (closure)\n"
            "LOAD_CONST 1 ('K')\n"
            "CALL 2\n"
            "STORE_FAST 1 (K)\n"
            "LOAD_FAST 1 (K)\n"
            "RETURN_VALUE\n");
}

TEST(CompilerTest, NonlocalThroughThreeLevelsAndModuleGlobal) {
  Obj m = compile(
      "global top\n"
      "top = 0\n"
      "def a():\n"
      "    v = 0\n"
      "    def b():\n"
      "        def c():\n"
      "            nonlocal v\n"
      "            v = 1\n"
      "        return c\n"
      "    return b\n");
  EXPECT_NE(code_ops(m, "<module>").find("STORE_NAME 0 (top)\n"), std::string::npos);
  const Code* b = find_code(*m.as<Code>(), "a.<locals>.b");
  ASSERT_TRUE(b);
  EXPECT_EQ(b->freevars, (std::vector<std::string>{"v"}));
  EXPECT_NE(code_ops(m, "a.<locals>.b.<locals>.c").find("STORE_DEREF 0 (v)\n"), std::string::npos);
  EXPECT_NE(code_ops(m, "a").find("STORE_DEREF 0 (v)\n"), std::string::npos);
}

TEST(CompilerTest, KeywordOnlyParametersWithoutDefaults) {
  Obj m = compile("def f(a, *, b, c=1):\n    return b\n");
  const Code* f = find_code(*m.as<Code>(), "f");
  EXPECT_EQ(f->argcount, 1);
  EXPECT_EQ(f->kwonlyargcount, 2);
  EXPECT_FALSE(f->has_varargs);
  EXPECT_EQ(code_ops(m, "<module>"),
            "code <module> (module, t.py:1) argcount=0 kwonly=0 max_stack=2\n"
            "LOAD_CONST 0 ('c')\n"
            "LOAD_CONST 1 (1)\n"
            "BUILD_DICT 1\n"
            "LOAD_CONST 2 (<code f>)\n"
            "MAKE_FUNCTION 2 (kwdefaults)\n"
            "STORE_NAME 0 (f)\n"
            "LOAD_CONST 3 (None)\n"
            "RETURN_VALUE\n");
}

TEST(CompilerTest, ConstantsAreSharedByTypeAndValue) {
  Obj m = compile("a = 1\nb = 1.0\nc = True\nd = 1\ne = -0.0\nf = 0.0\n");
  const Code& c = *m.as<Code>();
  EXPECT_EQ(c.consts.size(), 6u);  // 1, 1.0, True, -0.0, 0.0, None
}

}  // namespace
}  // namespace kiln::lang

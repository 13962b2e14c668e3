// The VM end to end: scripts run through an Interp with captured output.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/lang/interp.h"

namespace kiln::lang {
namespace {

std::string run(const std::string& src) {
  std::ostringstream out;
  Interp in(&out);
  in.run_source(src, "test.py");
  return out.str();
}

// The formatted traceback of a script that must raise.
std::string run_error(const std::string& src) {
  std::ostringstream out;
  Interp in(&out);
  try {
    in.run_source(src, "test.py");
  } catch (const ScriptException& e) {
    return in.format_exception(e);
  }
  ADD_FAILURE() << "script did not raise";
  return "";
}

TEST(Vm, ArithmeticAndLoops) {
  EXPECT_EQ(run("t = 0\nfor i in range(10):\n    t += i\nprint(t)\n"), "45\n");
  EXPECT_EQ(run("i = 0\nwhile True:\n    i += 1\n    if i > 5:\n        break\nelse:\n    i = -1\nprint(i)\n"), "6\n");
  EXPECT_EQ(run("for i in range(3):\n    pass\nelse:\n    print('done', i)\n"), "done 2\n");
  EXPECT_EQ(run("print(-7 // 2, -7 % 2, 7 // -2, 2 ** -1, 1 < 2 < 3, 3 > 2 > 2)\n"), "-4 1 -4 0.5 True False\n");
}

TEST(Vm, FunctionsDefaultsKeywordsVarargs) {
  EXPECT_EQ(run("def f(a, b=2, *args, c, d=4, **kw):\n    return (a, b, args, c, d, kw)\n"
                "print(f(1, c=3))\nprint(f(1, 5, 6, 7, c=3, e=9))\n"),
            "(1, 2, (), 3, 4, {})\n(1, 5, (6, 7), 3, 4, {'e': 9})\n");
  EXPECT_EQ(run("def f(*a, **k):\n    return len(a), sorted(k)\nargs = [1, 2]\nkw = {'x': 1}\nprint(f(*args, 3, **kw))\n"),
            "(3, ['x'])\n");
}

TEST(Vm, ArgumentErrorsAreCPythonsWording) {
  EXPECT_NE(run_error("def f(a, b):\n    pass\nf(1)\n").find("TypeError: f() missing 1 required positional argument: 'b'"),
            std::string::npos);
  EXPECT_NE(run_error("def f(a):\n    pass\nf(1, 2)\n").find("TypeError: f() takes 1 positional argument but 2 were given"),
            std::string::npos);
  EXPECT_NE(run_error("def f(a):\n    pass\nf(1, z=2)\n").find("TypeError: f() got an unexpected keyword argument 'z'"),
            std::string::npos);
}

TEST(Vm, ClosuresAndNonlocal) {
  EXPECT_EQ(run("def counter():\n    n = 0\n    def inc():\n        nonlocal n\n        n += 1\n        return n\n"
                "    return inc\nc = counter()\nc()\nprint(c(), c())\n"),
            "2 3\n");
  EXPECT_EQ(run("fs = [lambda x, i=i: x * i for i in range(3)]\nprint([f(10) for f in fs])\n"), "[0, 10, 20]\n");
  EXPECT_EQ(run("g = 1\ndef f():\n    global g\n    g = 5\nf()\nprint(g)\n"), "5\n");
}

TEST(Vm, ClassesInheritanceSuperPropertyCall) {
  const char* src = R"(
class Base:
    kind = 'base'
    def __init__(self, x):
        self.x = x
    def describe(self):
        return f'{self.kind}:{self.x}'
    @staticmethod
    def twice(v):
        return 2 * v
    @property
    def double(self):
        return self.x * 2

class Child(Base):
    kind = 'child'
    def __init__(self, x, y):
        super().__init__(x)
        self.y = y
    def describe(self):
        return super().describe() + f'+{self.y}'
    def __call__(self, z):
        return self.x + self.y + z

c = Child(1, 2)
print(c.describe(), c.double, Child.twice(4), c(10), isinstance(c, Base), type(c).__name__)
)";
  EXPECT_EQ(run(src), "child:1+2 2 8 13 True Child\n");
}

TEST(Vm, ExceptionsTryExceptFinally) {
  const char* src = R"(
def f(k):
    try:
        if k == 0:
            raise ValueError('bad')
        if k == 1:
            return 1 // 0
        return 'ok'
    except ValueError as e:
        return 'value:' + str(e)
    except ZeroDivisionError as e:
        return 'zero:' + str(e)
    finally:
        print('finally', k)

print(f(0))
print(f(1))
print(f(2))
class MyError(Exception):
    pass
try:
    try:
        raise MyError('inner')
    except KeyError:
        print('not here')
except Exception as e:
    print(type(e).__name__, e.args)
for i in range(3):
    try:
        if i == 1:
            continue
        print('body', i)
    finally:
        print('fin', i)
)";
  EXPECT_EQ(run(src),
            "finally 0\nvalue:bad\nfinally 1\nzero:integer division or modulo by zero\nfinally 2\nok\n"
            "MyError ('inner',)\nbody 0\nfin 0\nfin 1\nbody 2\nfin 2\n");
}

TEST(Vm, BareRaiseReraisesTheHandledException) {
  std::string tb = run_error("try:\n    x = {}['k']\nexcept KeyError:\n    raise\n");
  EXPECT_NE(tb.find("KeyError: 'k'"), std::string::npos) << tb;
  EXPECT_NE(tb.find("line 2"), std::string::npos) << tb;
}

TEST(Vm, TracebackNamesEveryFrameAndLine) {
  std::string tb = run_error("def inner():\n    return undefined_name\n\ndef outer():\n    return inner()\n\nouter()\n");
  EXPECT_EQ(tb,
            "Traceback (most recent call last):\n"
            "  File \"test.py\", line 7, in <module>\n    outer()\n"
            "  File \"test.py\", line 5, in outer\n    return inner()\n"
            "  File \"test.py\", line 2, in inner\n    return undefined_name\n"
            "NameError: name 'undefined_name' is not defined\n");
}

TEST(Vm, WithStatementCallsExitAndCanSuppress) {
  const char* src = R"(
class Ctx:
    def __init__(self, suppress):
        self.suppress = suppress
    def __enter__(self):
        print('enter')
        return self
    def __exit__(self, t, v, tb):
        print('exit', t is None)
        return self.suppress
with Ctx(False) as c:
    print('body', c.suppress)
with Ctx(True):
    raise ValueError('x')
print('after')
def f():
    with Ctx(False):
        return 'ret'
print(f())
)";
  EXPECT_EQ(run(src), "enter\nbody False\nexit True\nenter\nexit False\nafter\nenter\nexit True\nret\n");
}

TEST(Vm, UnpackingComprehensionsAndContainers) {
  EXPECT_EQ(run("a, *b, c = range(5)\nprint(a, b, c)\n(x, y), z = (1, 2), 3\nprint(x, y, z)\n"),
            "0 [1, 2, 3] 4\n1 2 3\n");
  EXPECT_EQ(run("d = {k: v for k, v in zip('abc', range(3)) if v != 1}\nprint(d, {x % 2 for x in range(5)})\n"),
            "{'a': 0, 'c': 2} {0, 1}\n");
  EXPECT_EQ(run("print(sum(x * x for x in range(4)), [i for i in range(3) for j in range(i)])\n"), "14 [1, 2, 2]\n");
}

TEST(Vm, RecursionLimitIsAnExceptionNotACrash) {
  std::string tb = run_error("def f(n):\n    return f(n + 1)\nf(0)\n");
  EXPECT_NE(tb.find("RecursionError: maximum recursion depth exceeded"), std::string::npos);
}

TEST(Vm, StepLimitStopsRunawayScripts) {
  std::ostringstream out;
  Interp in(&out);
  in.step_limit = 10000;
  EXPECT_THROW(in.run_source("while True:\n    pass\n", "loop.py"), ScriptException);
}

TEST(Vm, HotCountersCallTheJitHooks) {
  std::ostringstream out;
  Interp in(&out);
  std::vector<std::string> hot_functions;
  int hot_loops = 0;
  in.hooks.on_hot_function = [&](Interp&, Code& c) { hot_functions.push_back(c.name); };
  in.hooks.on_hot_loop = [&](Interp&, Code&, size_t) { ++hot_loops; };
  in.run_source("def f():\n    return 1\ndef g():\n    return 2\nfor i in range(5):\n    f()\ng()\n", "hot.py");
  // f runs 5 times (> hot_calls = 2): reported once; g runs once; the loop's back-edge once.
  EXPECT_EQ(hot_functions, std::vector<std::string>{"f"});
  EXPECT_EQ(hot_loops, 1);
}

TEST(Vm, ImportsBuiltinModules) {
  EXPECT_EQ(run("import math\nfrom math import sqrt as s\nprint(s(16.0), math.floor(2.5))\n"), "4.0 2\n");
  std::string tb = run_error("import numpy\n");
  EXPECT_NE(tb.find("ModuleNotFoundError: No module named 'numpy'"), std::string::npos) << tb;
}

// A directory of script files for the import tests, removed afterwards.
struct ScriptDir {
  std::filesystem::path dir;
  explicit ScriptDir(const char* name) : dir(std::filesystem::path(::testing::TempDir()) / name) {
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
  }
  ~ScriptDir() { std::filesystem::remove_all(dir); }
  std::string write(const std::string& rel, const std::string& text) const {
    std::filesystem::path p = dir / rel;
    std::filesystem::create_directories(p.parent_path());
    std::ofstream(p) << text;
    return p.string();
  }
};

// The traceback of a script file that must raise (a ScriptException).
std::string run_file_error(const std::string& path, std::string* out_text = nullptr) {
  std::ostringstream out;
  Interp in(&out);
  std::string tb;
  try {
    in.run_file(path);
    ADD_FAILURE() << "script did not raise";
  } catch (const ScriptException& e) {
    tb = in.format_exception(e);
  }
  if (out_text) *out_text = out.str();
  return tb;
}

TEST(Vm, ImportsModulesNextToTheScript) {
  ScriptDir d("kiln_vm_import");
  d.write("helper.py", "print('helper runs')\ndef f(x):\n    return x + 1\n");
  d.write("pkg/__init__.py", "from .m import g\n");
  d.write("pkg/m.py", "def g():\n    return __name__\n");
  std::string main = d.write("main.py", "import helper\nimport helper\nfrom pkg import g\nimport pkg.m\n"
                                        "print(helper.f(1), g(), pkg.m.g())\n");
  std::ostringstream out;
  Interp in(&out);
  in.run_file(main);
  EXPECT_EQ(out.str(), "helper runs\n2 pkg.m pkg.m\n");
}

TEST(Vm, SyntaxErrorInAnImportedModuleNamesItsFile) {
  ScriptDir d("kiln_vm_import_syntax");
  std::string bad = d.write("bad.py", "x = 1\ny = = 2\n");
  std::string main = d.write("main.py", "import bad\n");
  std::string tb = run_file_error(main);
  EXPECT_NE(tb.find("File \"" + main + "\", line 1, in <module>\n    import bad\n"), std::string::npos) << tb;
  EXPECT_NE(tb.find("  File \"" + bad + "\", line 2\n    y = = 2\n"), std::string::npos) << tb;
  EXPECT_NE(tb.find("\nSyntaxError: "), std::string::npos) << tb;
  // Caught, it is a SyntaxError whose str() names the file as CPython's does.
  std::string caught = d.write("catch.py", "try:\n    import bad\nexcept SyntaxError as e:\n"
                                          "    print(str(e).endswith('(bad.py, line 2)'), e.lineno)\n");
  std::ostringstream out;
  Interp in(&out);
  in.run_file(caught);
  EXPECT_EQ(out.str(), "True 2\n");
}

TEST(Vm, ExceptionInAnImportedModuleShowsItsFileAndLine) {
  ScriptDir d("kiln_vm_import_raise");
  std::string mod = d.write("boom.py", "x = 1\nraise ValueError('boom')\n");
  std::string main = d.write("main.py", "import boom\n");
  std::string tb = run_file_error(main);
  EXPECT_NE(tb.find("  File \"" + mod + "\", line 2, in <module>\n    raise ValueError('boom')\n"),
            std::string::npos) << tb;
  EXPECT_NE(tb.find("ValueError: boom"), std::string::npos) << tb;
}

TEST(Vm, PreludeImportsIgnoreTheScriptsFiles) {
  // A user copy.py shadows `import copy` in the script, as in CPython, but
  // kiln's own modules (nn.TransformerEncoder deep-copies its layer) still get
  // the built-in one.
  ScriptDir d("kiln_vm_import_shadow");
  d.write("copy.py", "print('user copy')\ndeepcopy = None\n");
  std::string main = d.write("main.py", "import copy\nimport torch\nprint(copy.deepcopy)\n"
                                        "layer = torch.nn.TransformerEncoderLayer(4, 1, 8)\n"
                                        "enc = torch.nn.TransformerEncoder(layer, 2, enable_nested_tensor=False)\n"
                                        "print(len(enc.layers))\n");
  std::ostringstream out;
  Interp in(&out);
  in.run_file(main);
  EXPECT_EQ(out.str(), "user copy\nNone\n2\n");
}

}  // namespace
}  // namespace kiln::lang

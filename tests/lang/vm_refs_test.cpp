// Every instruction lets go of what it pops: a reference an instruction keeps
// by mistake outlives every Python variable, and the JIT (jit/liveness.cpp)
// counts it as a use, so the tensor is written to memory instead of staying
// in a fused kernel's registers.
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "core/lang/interp.h"

namespace kiln::lang {
namespace {

// refs(o): o's reference count, including the argument slot the call reads it from.
Obj refs(Interp&, const CallArgs& a) {
  a.check("refs", 1, 1);
  return Obj::from_int(a.pos[0].is_heap() ? int64_t(a.pos[0].heap()->refcount) : -1);
}

const char* kSetup = R"(import torch
class C:
    pass
class Ctx:
    def __enter__(self):
        return self
    def __exit__(self, *exc):
        return False
class E(Exception):
    pass
def f(*args, **kwargs):
    return len(args) + len(kwargs)
t = torch.ones(3)
o = C()
m = Ctx()
key = 'k' + str(1)
l = [key]
d = {'k': t}
d2 = {key: 1}
)";

std::string run(const std::string& src) {
  std::ostringstream out;
  Interp in(&out);
  in.builtins().attrs.set("refs", make_builtin("refs", refs));
  try {
    in.run_source(std::string(kSetup) + src, "test.py");
  } catch (const ScriptException& e) {
    return out.str() + in.format_exception(e);
  }
  return out.str();
}

// What `name` holds gained over `snippet`: 0 when nothing kept a reference.
std::string leaked(const std::string& name, const std::string& snippet) {
  return run("before = refs(" + name + ")\n" + snippet + "\nprint(refs(" + name + ") - before)\n");
}

TEST(VmRefs, InstructionsReleaseWhatTheyPop) {
  const std::vector<std::pair<const char*, const char*>> cases = {
      {"t", "u = 0.5 * t"},                                  // BINARY_OP, the tensor on the right
      {"t", "u = torch.zeros(3)\nu += t"},                   // INPLACE_OP
      {"t", "n = f(*(t,))"},                                 // CALL_EX through LIST_EXTEND
      {"l", "n = f(*l)"},                                    // CALL_EX on a list
      {"d", "n = f(**d)"},                                   // DICT_UPDATE
      {"l", "b = 1 in l"},                                   // COMPARE_OP
      {"key", "v = d2[key]"},                                // BINARY_SUBSCR
      {"d2", "d2[key] = 2"},                                 // STORE_SUBSCR
      {"d2", "d2['x'] = 1\ndel d2['x']"},                    // DELETE_SUBSCR
      {"o", "o.a = 1"},                                      // STORE_ATTR
      {"o", "o.a = 1\ndel o.a"},                             // DELETE_ATTR
      {"o", "if o:\n    pass"},                            // POP_JUMP_IF_FALSE
      {"o", "s = f'{o}'"},                                   // FORMAT_VALUE
      {"key", "s = f'{key:>4}'"},                            // FORMAT_VALUE with a spec
      {"t", "s = {'k': t}\ndel s"},                          // BUILD_DICT
      {"key", "s = {key}\ndel s"},                           // BUILD_SET
      {"key", "s = {x for x in [key]}\ndel s"},              // SET_ADD
      {"key", "s = {x: 1 for x in [key]}\ndel s"},           // MAP_ADD
      {"m", "with m:\n    pass"},                          // BEFORE_WITH, WITH_EXIT
      {"E", "try:\n    raise E()\nexcept E:\n    pass"},  // JUMP_IF_NOT_EXC_MATCH
      {"o", "def g():\n    return o\ng()"},                // LOAD_GLOBAL, first (uncached) run
  };
  for (const auto& [name, snippet] : cases) {
    SCOPED_TRACE(snippet);
    EXPECT_EQ(leaked(name, snippet), "0\n");
  }
}

// The case that cost a fused kernel a store: after `0.5 * y` in a function, y
// must be held by nothing but the variables that name it (here the global y
// and refs' argument), not by the frame that computed it.
TEST(VmRefs, ReflectedOperandOutlivesNoVariable) {
  EXPECT_EQ(run("def g(x):\n    y = x * 2.0\n    z = 0.5 * y\n    return y\ny = g(t)\nprint(refs(y))\n"), "2\n");
}

}  // namespace
}  // namespace kiln::lang

// Entry points of the bytecode loop (vm.cpp).
#pragma once

#include <span>
#include <vector>

#include "core/lang/bytecode.h"
#include "core/lang/object.h"

namespace kiln::lang {

class Interp;

// Calls a Python function: binds arguments (TypeErrors worded like CPython's),
// sets up cells and runs its code.
Obj run_function(Interp& in, const FunctionObj& fn, std::span<const Obj> pos, std::span<const Kwarg> kw);
// Runs a module or class body with `names` as its LOAD_NAME/STORE_NAME namespace.
Obj run_body(Interp& in, Code& code, const Obj& globals, OrderedMap& names, const std::vector<Obj>& closure);
// generator.throw(exc): raises exc where the generator is suspended; returns
// what it yields next (StopIteration when it finishes instead).
bool is_generator(const Obj& o);
Obj generator_throw(Interp& in, const CallArgs& a);
// Where the VM is: a code and the index of the instruction executing.
struct FrameRef {
  const Code* code = nullptr;  // null: no Python frame is running
  uint32_t pc = 0;
  const OrderedMap* globals = nullptr;  // the module globals the frame runs in
};
FrameRef current_frame();
// The Python call stack, innermost first (at most `max` frames).
std::vector<FrameRef> current_stack(size_t max = 64);
// Frees this thread's value stack (the interpreter calls it at shutdown).
void release_value_stack();

}  // namespace kiln::lang

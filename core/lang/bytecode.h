// A compiled function body (or module, class body, comprehension): the
// instructions, their source positions, and the tables the arguments index.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "core/lang/ast.h"
#include "core/lang/object.h"
#include "core/lang/opcodes.h"

namespace kiln::lang {

struct Instr {
  uint32_t word;
  Instr(Op op, uint32_t arg = 0) : word(uint32_t(op) | (arg << 8)) {}
  Op op() const { return Op(word & 0xff); }
  uint32_t arg() const { return word >> 8; }
  void set_arg(uint32_t a) { word = (word & 0xff) | (a << 8); }
};
constexpr uint32_t kMaxArg = (1u << 24) - 1;

// What kind of scope a Code runs in: how names resolve and how the frame is set up.
enum class CodeKind : uint8_t { Module, Function, Class, Lambda, Comprehension };

// A LOAD_GLOBAL's cached answer: valid while neither namespace gained or lost keys.
struct GlobalCache {
  uint64_t globals_uid = 0;  // OrderedMap::uid of the module namespace
  uint32_t globals_version = 0;
  uint32_t builtins_version = 0;
  Obj* slot = nullptr;
};

// What LOAD_ATTR/STORE_ATTR/LOAD_METHOD found on an instance's class for one
// name: valid while the class and g_class_epoch are unchanged.
struct AttrCache {
  const ClassObj* cls = nullptr;
  uint64_t epoch = 0;
  Obj class_attr = Obj::null();  // the name on the class chain, or Null
  bool custom_setattr = false;   // the class defines __setattr__ in Python
  bool has_getattr = false;      // the class defines __getattr__
  uint32_t index_hint = 0;       // where instances keep this attribute (OrderedMap::find_hinted)
  // The instance map last seen without this name (a method call in a loop
  // looks at the same object again): valid while its layout is unchanged.
  uint64_t absent_in = 0;  // OrderedMap::uid
  uint32_t absent_version = 0;
  // LOAD_METHOD on a built-in container: the method, unbound, for receivers of this kind.
  Kind receiver = Kind::Null;
  Obj method;
};

struct Code : HeapObj {
  static constexpr Kind kKind = Kind::Code;
  Code() : HeapObj(kKind) {}
  void clear_refs() override { consts.clear(); name_objs.clear(); attr_cache.clear(); }

  CodeKind code_kind = CodeKind::Function;
  std::string name;      // "f", "<module>", "<lambda>", "<listcomp>", class name
  std::string qualname;  // "Net.forward"
  std::string filename;
  int firstline = 0;

  std::vector<Instr> code;
  std::vector<Pos> positions;  // positions[i]: source of code[i] (same length)

  std::vector<Obj> consts;          // LOAD_CONST; nested Codes for MAKE_FUNCTION
  std::vector<std::string> names;   // globals, attributes, imports, CALL_KW keyword names
  std::vector<Obj> name_objs;       // names as str objects (hash cached), built by the VM on first run
  // Locals: parameters first (argcount positional, then kwonlyargcount,
  // then *args, then **kwargs when present), then other locals.
  std::vector<std::string> varnames;
  std::vector<std::string> cellvars;  // locals captured by inner functions
  std::vector<std::string> freevars;  // captured from enclosing functions
  // For each cellvar that is also a parameter: its varnames index (else -1),
  // so the frame moves the argument into the cell on entry.
  std::vector<int> cell_param;

  int argcount = 0;        // positional parameters
  int kwonlyargcount = 0;  // keyword-only parameters
  bool has_varargs = false;
  bool has_varkw = false;
  bool is_generator = false;  // calling it makes a generator (core/lang/vm.cpp); never a JIT region
  int max_stack = 0;       // the deepest operand stack the body needs

  // Hot counters for the tracing JIT: calls of this code, and back-edge
  // counts per JUMP_BACK instruction index (allocated lazily by the VM).
  uint32_t call_count = 0;
  std::vector<uint32_t> loop_counts;
  // Set by the JIT: frames of this code open a region (VmHooks::on_region_enter).
  bool jit_region = false;
  std::vector<GlobalCache> global_cache;  // per instruction, filled by the VM
  std::vector<AttrCache> attr_cache;      // per instruction, filled by the VM
  // This code's name and file interned in the trace session `trace_generation`.
  uint64_t trace_generation = 0;
  uint32_t trace_name = 0, trace_file = 0;
  // Plain positional signature (no defaults needed, *args, **kwargs, kw-only
  // or cells): the VM's fast call path copies arguments straight into locals.
  bool simple_args() const {
    return !has_varargs && !has_varkw && kwonlyargcount == 0 && cellvars.empty() && freevars.empty();
  }

  size_t nlocals() const { return varnames.size(); }
  size_t ncells() const { return cellvars.size() + freevars.size(); }
};

// Human-readable listing (one instruction a line: index, line:col, opcode,
// argument and what it names), recursing into nested code objects.
std::string disassemble(const Code& code);

// Added by the compiler (bytecode.cpp): how an instruction changes the operand
// stack depth, on the fall-through path (jump=false) or when it jumps
// (jump=true; for SETUP_FINALLY: at the handler, relative to the setup).
int stack_effect(Op op, uint32_t arg, bool jump);
// The deepest operand stack any path through the code reaches (a CFG walk).
// Throws kiln::Error(Runtime) if paths meet with different depths (a compiler bug).
int compute_max_stack(const Code& code);

}  // namespace kiln::lang

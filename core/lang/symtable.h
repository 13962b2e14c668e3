// The symbol-table pass: decides, before any code is emitted, how every name
// in every scope is accessed (fast local, cell, free variable, global, or
// the class/module dict), following CPython's scoping rules. The compiler
// looks scopes up by the AST node that opens them.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/lang/ast.h"

namespace kiln::lang {

enum class ScopeKind : uint8_t { Module, Function, Class, Lambda, Comprehension };

// How a name is reached from the code of one scope.
enum class NameAccess : uint8_t {
  Fast,    // LOAD_FAST: a plain local
  Cell,    // LOAD_DEREF: a local captured by an inner scope
  Free,    // LOAD_DEREF: captured from an enclosing function
  Global,  // LOAD_GLOBAL: declared `global`, or bound nowhere in enclosing functions
  Name,    // LOAD_NAME: module level and class bodies
};

struct Scope {
  ScopeKind kind = ScopeKind::Module;
  std::string name;
  Pos pos;
  std::map<std::string, NameAccess> access;  // every name the scope's code mentions
  std::vector<std::string> varnames;  // parameters first, then other fast locals
  std::vector<std::string> cellvars;  // sorted
  std::vector<std::string> freevars;  // sorted
  int argcount = 0, kwonlyargcount = 0;
  bool has_varargs = false, has_varkw = false;
  // A function inside a class that calls zero-argument super(): it has the
  // free variable __class__ (and the class body a cell of that name).
  bool uses_class_cell = false;
  bool generator = false;  // a function whose body yields

  NameAccess access_of(const std::string& name) const;  // Name/Global by default
  int cell_index(const std::string& name) const;        // cellvars then freevars, -1 if none
};

// Scopes of one module, keyed by the node that opens each: the Module, a
// FunctionDef, ClassDef, Lambda or comprehension expression.
class SymbolTable {
 public:
  const Scope& scope_of(const void* node) const;
  std::unordered_map<const void*, std::unique_ptr<Scope>> scopes;
};

// Throws kiln::Error(Syntax) for misplaced global/nonlocal declarations,
// duplicate parameters and nonlocal names with no binding.
SymbolTable build_symtable(const Module& module);

}  // namespace kiln::lang

// AST -> bytecode. Resolves every name to a local, cell, free, global or
// class/module-dict access (a symbol-table pass), emits instructions with
// their source positions, folds constant expressions and runs a peephole
// pass over jumps. Errors (a `return` outside a function, `nonlocal` of an
// unknown name, ...) are kiln::Error(Syntax) with the location.
#pragma once

#include "core/lang/ast.h"
#include "core/lang/bytecode.h"

namespace kiln::lang {

// The module's Code (CodeKind::Module). Nested functions, classes, lambdas
// and comprehensions are Codes in its consts.
Obj compile_module(const Module& module);
// Added by the compiler: optimize=false skips constant folding and the jump
// peephole pass, so tests can show the bytecode before and after them.
Obj compile_module(const Module& module, bool optimize);

}  // namespace kiln::lang

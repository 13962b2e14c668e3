// Optimisation passes over a finished Code (labels already resolved to
// instruction indices). Each keeps `positions` in step with `code`.
#pragma once

#include <string>

#include "core/lang/bytecode.h"

namespace kiln::lang {

// Folds constant expressions on numbers (LOAD_CONST a; LOAD_CONST b;
// BINARY_OP -> LOAD_CONST a op b, and unary -, +, ~) with Python's semantics,
// and tuples of constants into one LOAD_CONST. Leaves NOPs where instructions
// were removed and drops constants no longer used (fold_constants.cpp).
// Never folds what would raise (division by zero) or overflow int64.
void fold_constants(Code& code);

// Threads jumps to unconditional jumps, turns unreachable code and jumps to
// the next instruction into NOPs, and deletes NOPs, remapping jump targets
// and positions (peephole.cpp). Backward jumps stay JUMP_BACK.
void optimize_jumps(Code& code);

// A key equal for constants that must share one consts slot (type and value:
// 1, 1.0 and True differ; so do 0.0 and -0.0).
std::string const_key(const Obj& value);

}  // namespace kiln::lang

// Every bytecode instruction of the Kiln VM, in one table. The compiler emits
// them, the VM executes them, the disassembler prints them, and the tracer
// will read them. Stack effects are written [before] -> [after], top last.
//
// An instruction is one 32-bit word: opcode in the low 8 bits, argument in
// the high 24 bits (see Instr in bytecode.h). Jump arguments are absolute
// instruction indices. Names index Code::names, constants Code::consts,
// locals Code::varnames, cells/free variables Code::cellvars + freevars.
#pragma once

#include <cstdint>

namespace kiln::lang {

#define KILN_OPCODES(_)                                                                        \
  /* ---- stack ---- */                                                                        \
  _(NOP)                /* */                                                                  \
  _(POP_TOP)            /* [a] -> [] */                                                        \
  _(DUP_TOP)            /* [a] -> [a a] */                                                     \
  _(DUP_TOP_TWO)        /* [a b] -> [a b a b] */                                               \
  _(ROT_TWO)            /* [a b] -> [b a] */                                                   \
  _(ROT_THREE)          /* [a b c] -> [c a b] */                                               \
  _(ROT_FOUR)           /* [a b c d] -> [d a b c] */                                           \
  /* ---- names ---- */                                                                        \
  _(LOAD_CONST)         /* arg=const index: [] -> [c] */                                       \
  _(LOAD_FAST)          /* arg=local: [] -> [v]; UnboundLocalError if unset */                 \
  _(STORE_FAST)         /* arg=local: [v] -> [] */                                             \
  _(DELETE_FAST)        /* arg=local */                                                        \
  _(LOAD_DEREF)         /* arg=cell index (cellvars then freevars): [] -> [cell contents] */   \
  _(STORE_DEREF)        /* arg=cell index: [v] -> [] */                                        \
  _(DELETE_DEREF)       /* arg=cell index */                                                   \
  _(LOAD_CLOSURE)       /* arg=cell index: [] -> [the cell object itself] */                   \
  _(LOAD_GLOBAL)        /* arg=name: globals, then builtins; NameError if neither */           \
  _(STORE_GLOBAL)       /* arg=name: [v] -> [] */                                              \
  _(DELETE_GLOBAL)      /* arg=name */                                                         \
  _(LOAD_NAME)          /* arg=name: class body / module: frame dict, globals, builtins */     \
  _(STORE_NAME)         /* arg=name: [v] -> [] into the frame dict */                          \
  _(DELETE_NAME)        /* arg=name */                                                         \
  /* ---- attributes and items ---- */                                                        \
  _(LOAD_ATTR)          /* arg=name: [o] -> [o.name] */                                        \
  _(STORE_ATTR)         /* arg=name: [v o] -> [] (o.name = v) */                               \
  _(DELETE_ATTR)        /* arg=name: [o] -> [] */                                              \
  _(LOAD_METHOD)        /* arg=name: [o] -> [meth o] or [NULL bound] (see CALL_METHOD) */      \
  _(BINARY_SUBSCR)      /* [o k] -> [o[k]] */                                                  \
  _(STORE_SUBSCR)       /* [v o k] -> [] (o[k] = v) */                                         \
  _(DELETE_SUBSCR)      /* [o k] -> [] */                                                      \
  /* ---- operators ---- */                                                                    \
  _(BINARY_OP)          /* arg=BinOpKind: [a b] -> [a op b] */                                 \
  _(INPLACE_OP)         /* arg=BinOpKind: [a b] -> [a op= b] (tries __iop__ / in-place first) */ \
  _(UNARY_OP)           /* arg=UnaryOpKind: [a] -> [op a] */                                   \
  _(COMPARE_OP)         /* arg=CmpOpKind: [a b] -> [a op b] (is, in, ... included) */          \
  _(TO_BOOL)            /* [a] -> [bool(a)] */                                                 \
  /* ---- building ---- */                                                                     \
  _(BUILD_TUPLE)        /* arg=n: [x1..xn] -> [(x1..xn)] */                                    \
  _(BUILD_LIST)         /* arg=n: [x1..xn] -> [[x1..xn]] */                                    \
  _(BUILD_SET)          /* arg=n: [x1..xn] -> [{x1..xn}] */                                    \
  _(BUILD_CONST_SET)    /* arg=n: as BUILD_SET, for a literal of >= 3 constants: CPython     \
                           folds it into a frozenset constant, rebuilds that from its own      \
                           items, and merges it into a new set (the order it iterates in) */   \
  _(BUILD_DICT)         /* arg=n: [k1 v1 .. kn vn] -> [{..}] */                                \
  _(BUILD_SLICE)        /* arg=2|3: [lo hi] or [lo hi step] -> [slice] (None where absent) */  \
  _(BUILD_STRING)       /* arg=n: [s1..sn] (all str) -> [s1+..+sn] */                          \
  _(FORMAT_VALUE)       /* arg=conversion(0 none,1 s,2 r,3 a) | 4 if spec: [v spec?] -> [str] */ \
  _(LIST_APPEND)        /* arg=depth: [list .. (depth-1 items) v] -> [list ..] ; list.append(v) */ \
  _(SET_ADD)            /* arg=depth: like LIST_APPEND for a set */                            \
  _(MAP_ADD)            /* arg=depth: [dict .. k v] -> [dict ..] ; dict[k] = v */              \
  _(LIST_EXTEND)        /* arg=depth: [list .. it] -> [list ..] ; list.extend(it) */           \
  _(DICT_UPDATE)        /* arg=depth: [dict .. m] -> [dict ..] ; keys must be str for calls */ \
  _(LIST_TO_TUPLE)      /* [list] -> [tuple] */                                                \
  _(UNPACK_SEQUENCE)    /* arg=n: [seq] -> [xn .. x1] (x1 on top); ValueError on wrong count */ \
  _(UNPACK_EX)          /* arg=before | after<<8: [seq] -> [after.. list before..] (first on top) */ \
  /* ---- control flow ---- */                                                                 \
  _(JUMP)               /* arg=target (forward) */                                             \
  _(JUMP_BACK)          /* arg=target: a loop back-edge; bumps the loop's hot counter */       \
  _(POP_JUMP_IF_FALSE)  /* arg=target: [c] -> [] */                                            \
  _(POP_JUMP_IF_TRUE)   /* arg=target: [c] -> [] */                                            \
  _(JUMP_IF_FALSE_OR_POP) /* arg=target: [c] -> [c] and jump if false, else [] */              \
  _(JUMP_IF_TRUE_OR_POP)  /* arg=target: [c] -> [c] and jump if true, else [] */               \
  _(GET_ITER)           /* [o] -> [iter(o)] */                                                 \
  _(FOR_ITER)           /* arg=target: [it] -> [it next] or, when exhausted, [] and jump */    \
  /* ---- calls and functions ---- */                                                          \
  _(CALL)               /* arg=n: [f a1..an] -> [f(a1..an)] */                                 \
  _(CALL_KW)            /* arg=n: [f a1..an names] -> [f(...)]; names: const tuple of str, the \
                           last len(names) args are keyword arguments */                       \
  _(CALL_EX)            /* arg=1 if kwargs: [f args_tuple kwargs_dict?] -> [f(*args, **kw)] */ \
  _(CALL_METHOD)        /* arg=n: [meth o a1..an] -> [meth(o, a1..an)] or [NULL bound a..] -> [bound(a..)] */ \
  _(CALL_METHOD_KW)     /* arg=n: like CALL_METHOD with a names tuple on top, as CALL_KW */   \
  _(MAKE_FUNCTION)      /* arg=flags 1 defaults tuple, 2 kwdefaults dict, 8 closure tuple:     \
                           [defaults? kwdefaults? closure? code] -> [function] */              \
  _(LOAD_BUILD_CLASS)   /* [] -> [__build_class__]; called as __build_class__(body_fn, name, base?) */ \
  _(RETURN_VALUE)       /* [v] -> return v */                                                  \
  _(YIELD_VALUE)        /* [v] -> [None]: a generator's frame suspends, v goes to next()'s caller */ \
  /* ---- exceptions and with ---- */                                                          \
  _(SETUP_FINALLY)      /* arg=handler: push a block; on an exception unwind the stack to the \
                           block's depth, push the exception object and jump to handler */    \
  _(POP_BLOCK)          /* pop the innermost block */                                          \
  _(POP_EXCEPT)         /* [exc] -> []; leaves the handler (ends "during handling of") */     \
  _(RERAISE)            /* [exc] -> raise exc again, keeping its traceback */                 \
  _(RAISE_VARARGS)      /* arg=0: re-raise the exception being handled; 1: [exc]; 2: [exc cause] */ \
  _(JUMP_IF_NOT_EXC_MATCH) /* arg=target: [exc cls] -> [exc]; jump unless isinstance(exc, cls) */ \
  _(BEFORE_WITH)        /* [mgr] -> [exit_bound enter_result] */                               \
  _(WITH_EXIT)          /* [exit_bound] -> []; calls exit(None, None, None) */                 \
  _(WITH_EXCEPT)        /* [exit_bound exc] -> [exit_bound exc suppress_bool]; exit(type,exc,None) */ \
  /* ---- misc ---- */                                                                         \
  _(IMPORT_NAME)        /* arg=name (dotted): [] -> [module]; built-in modules only */         \
  _(IMPORT_FROM)        /* arg=name: [module] -> [module module.name] */                       \
  _(IMPORT_STAR)        /* [module] -> []; its __all__ (else public names) into the frame dict */ \
  _(LOAD_ASSERTION_ERROR) /* [] -> [AssertionError] */                                          \
  _(PRINT_EXPR)         /* unused in scripts; reserved for a REPL */

enum class Op : uint8_t {
#define KILN_OPCODE_ENUM(n) n,
  KILN_OPCODES(KILN_OPCODE_ENUM)
#undef KILN_OPCODE_ENUM
  kCount
};
const char* op_name(Op op);

// Whether an instruction's argument is a jump target.
constexpr bool is_jump(Op op) {
  switch (op) {
    case Op::JUMP: case Op::JUMP_BACK: case Op::POP_JUMP_IF_FALSE: case Op::POP_JUMP_IF_TRUE:
    case Op::JUMP_IF_FALSE_OR_POP: case Op::JUMP_IF_TRUE_OR_POP: case Op::FOR_ITER:
    case Op::SETUP_FINALLY: case Op::JUMP_IF_NOT_EXC_MATCH:
      return true;
    default:
      return false;
  }
}

}  // namespace kiln::lang

// Opcode names, stack effects, the max-stack analysis and the disassembler.
#include "core/lang/bytecode.h"

#include <algorithm>
#include <cstdio>
#include <iterator>

#include "core/error.h"
#include "core/format.h"
#include "core/lang/objops.h"

namespace kiln::lang {

const char* op_name(Op op) {
  static const char* const kNames[] = {
#define KILN_OPCODE_NAME(n) #n,
      KILN_OPCODES(KILN_OPCODE_NAME)
#undef KILN_OPCODE_NAME
  };
  size_t i = size_t(op);
  return i < size_t(Op::kCount) ? kNames[i] : "<bad opcode>";
}

int stack_effect(Op op, uint32_t arg, bool jump) {
  const int n = int(arg);
  switch (op) {
    case Op::NOP: case Op::ROT_TWO: case Op::ROT_THREE: case Op::ROT_FOUR: case Op::UNARY_OP:
    case Op::TO_BOOL: case Op::LOAD_ATTR: case Op::LIST_TO_TUPLE: case Op::GET_ITER: case Op::JUMP:
    case Op::YIELD_VALUE: case Op::JUMP_BACK: case Op::POP_BLOCK: case Op::DELETE_FAST: case Op::DELETE_DEREF:
    case Op::DELETE_GLOBAL: case Op::DELETE_NAME:
      return 0;
    case Op::POP_TOP: case Op::STORE_FAST: case Op::STORE_DEREF: case Op::STORE_GLOBAL:
    case Op::STORE_NAME: case Op::DELETE_ATTR: case Op::BINARY_SUBSCR: case Op::BINARY_OP:
    case Op::INPLACE_OP: case Op::COMPARE_OP: case Op::LIST_APPEND: case Op::SET_ADD:
    case Op::LIST_EXTEND: case Op::DICT_UPDATE: case Op::POP_JUMP_IF_FALSE: case Op::POP_JUMP_IF_TRUE:
    case Op::RETURN_VALUE: case Op::POP_EXCEPT: case Op::RERAISE: case Op::JUMP_IF_NOT_EXC_MATCH:
    case Op::WITH_EXIT: case Op::PRINT_EXPR: case Op::IMPORT_STAR:
      return -1;
    case Op::DUP_TOP: case Op::LOAD_CONST: case Op::LOAD_FAST: case Op::LOAD_DEREF:
    case Op::LOAD_CLOSURE: case Op::LOAD_GLOBAL: case Op::LOAD_NAME: case Op::LOAD_METHOD:
    case Op::LOAD_BUILD_CLASS: case Op::BEFORE_WITH: case Op::WITH_EXCEPT: case Op::IMPORT_NAME:
    case Op::IMPORT_FROM: case Op::LOAD_ASSERTION_ERROR:
      return 1;
    case Op::DUP_TOP_TWO: return 2;
    case Op::STORE_ATTR: case Op::DELETE_SUBSCR: case Op::MAP_ADD: return -2;
    case Op::STORE_SUBSCR: return -3;
    case Op::BUILD_TUPLE: case Op::BUILD_LIST: case Op::BUILD_SET: case Op::BUILD_CONST_SET: case Op::BUILD_SLICE:
    case Op::BUILD_STRING:
      return 1 - n;
    case Op::BUILD_DICT: return 1 - 2 * n;
    case Op::FORMAT_VALUE: return (n & 4) ? -1 : 0;
    case Op::UNPACK_SEQUENCE: return n - 1;
    case Op::UNPACK_EX: return (n & 0xff) + (n >> 8);
    case Op::JUMP_IF_FALSE_OR_POP: case Op::JUMP_IF_TRUE_OR_POP: return jump ? 0 : -1;
    case Op::FOR_ITER: return jump ? -1 : 1;
    case Op::SETUP_FINALLY: return jump ? 1 : 0;
    case Op::CALL: return -n;
    case Op::CALL_KW: return -n - 1;
    case Op::CALL_EX: return -1 - (n & 1);
    case Op::CALL_METHOD: return -n - 1;
    case Op::CALL_METHOD_KW: return -n - 2;
    case Op::MAKE_FUNCTION: return -((n & 1) + ((n >> 1) & 1) + ((n >> 3) & 1));
    case Op::RAISE_VARARGS: return -n;
    case Op::kCount: break;
  }
  return 0;
}

namespace {

bool ends_block(Op op) {
  return op == Op::JUMP || op == Op::JUMP_BACK || op == Op::RETURN_VALUE || op == Op::RERAISE ||
         op == Op::RAISE_VARARGS;
}

[[noreturn]] void stack_bug(const Code& c, size_t i, const char* what) {
  throw Error(detail::cat("internal compiler error: ", what, " at instruction ", i, " of ", c.qualname),
              ErrorKind::Runtime);
}

}  // namespace

int compute_max_stack(const Code& c) {
  const size_t n = c.code.size();
  std::vector<int> depth(n, -1);
  std::vector<size_t> work;
  auto reach = [&](size_t from, size_t target, int d) {
    if (target >= n) stack_bug(c, from, "jump or fall-through past the end");
    if (d < 0) stack_bug(c, from, "operand stack underflow");
    if (depth[target] < 0) {
      depth[target] = d;
      work.push_back(target);
    } else if (depth[target] != d) {
      stack_bug(c, target, "inconsistent stack depth");
    }
  };
  int max_depth = 0;
  if (n > 0) reach(0, 0, 0);
  while (!work.empty()) {
    size_t i = work.back();
    work.pop_back();
    const Instr in = c.code[i];
    const int d = depth[i];
    if (is_jump(in.op())) {
      int jd = d + stack_effect(in.op(), in.arg(), true);
      max_depth = std::max(max_depth, jd);
      reach(i, in.arg(), jd);
    }
    int fd = d + stack_effect(in.op(), in.arg(), false);
    if (fd < 0) stack_bug(c, i, "operand stack underflow");
    max_depth = std::max(max_depth, fd);
    if (!ends_block(in.op())) reach(i, i + 1, fd);
  }
  return max_depth;
}

// ---- disassembly ------------------------------------------------------------------------

namespace {

std::string const_repr(const Obj& o) {
  switch (o.kind()) {
    case Kind::None: return "None";
    case Kind::Bool: return o.as_bool() ? "True" : "False";
    case Kind::Int: return std::to_string(o.as_int());
    case Kind::Float: return format_double(o.as_float());
    case Kind::Str: return str_repr(o.as<StrObj>()->value);
    case Kind::Bytes: return bytes_repr(o.as<BytesObj>()->value);
    case Kind::Tuple: {
      const auto& items = o.as<TupleObj>()->items;
      std::string s = "(";
      for (size_t i = 0; i < items.size(); ++i) {
        if (i) s += ", ";
        s += const_repr(items[i]);
      }
      return s + (items.size() == 1 ? ",)" : ")");
    }
    case Kind::Code: return detail::cat("<code ", o.as<Code>()->qualname, ">");
    default: return detail::cat("<", kind_name(o.kind()), ">");
  }
}

const char* binop_sym(uint32_t k) {
  static const char* const kSyms[] = {
#define KILN_BINOP_SYM(n, s) s,
      KILN_BINOPS(KILN_BINOP_SYM)
#undef KILN_BINOP_SYM
  };
  return k < std::size(kSyms) ? kSyms[k] : "?";
}

const char* cmpop_sym(uint32_t k) {
  static const char* const kSyms[] = {
#define KILN_CMPOP_SYM(n, s) s,
      KILN_CMPOPS(KILN_CMPOP_SYM)
#undef KILN_CMPOP_SYM
  };
  return k < std::size(kSyms) ? kSyms[k] : "?";
}

bool has_arg(Op op) {
  switch (op) {
    case Op::NOP: case Op::POP_TOP: case Op::DUP_TOP: case Op::DUP_TOP_TWO: case Op::ROT_TWO:
    case Op::ROT_THREE: case Op::ROT_FOUR: case Op::BINARY_SUBSCR: case Op::STORE_SUBSCR:
    case Op::DELETE_SUBSCR: case Op::TO_BOOL: case Op::LIST_TO_TUPLE: case Op::GET_ITER:
    case Op::LOAD_BUILD_CLASS: case Op::RETURN_VALUE: case Op::POP_BLOCK: case Op::POP_EXCEPT:
    case Op::RERAISE: case Op::BEFORE_WITH: case Op::WITH_EXIT: case Op::WITH_EXCEPT:
    case Op::LOAD_ASSERTION_ERROR: case Op::PRINT_EXPR: case Op::IMPORT_STAR: case Op::YIELD_VALUE:
      return false;
    default:
      return true;
  }
}

template <class V>
std::string at(const V& v, uint32_t i) {
  return i < v.size() ? v[i] : std::string("<out of range>");
}

// What an instruction's argument refers to, or "" when the number says it all.
std::string describe_arg(const Code& c, Instr in) {
  const uint32_t a = in.arg();
  switch (in.op()) {
    case Op::LOAD_CONST: return a < c.consts.size() ? const_repr(c.consts[a]) : "<out of range>";
    case Op::LOAD_FAST: case Op::STORE_FAST: case Op::DELETE_FAST: return at(c.varnames, a);
    case Op::LOAD_DEREF: case Op::STORE_DEREF: case Op::DELETE_DEREF: case Op::LOAD_CLOSURE:
      return a < c.cellvars.size() ? c.cellvars[a] : at(c.freevars, uint32_t(a - c.cellvars.size()));
    case Op::LOAD_GLOBAL: case Op::STORE_GLOBAL: case Op::DELETE_GLOBAL: case Op::LOAD_NAME:
    case Op::STORE_NAME: case Op::DELETE_NAME: case Op::LOAD_ATTR: case Op::STORE_ATTR:
    case Op::DELETE_ATTR: case Op::LOAD_METHOD: case Op::IMPORT_NAME: case Op::IMPORT_FROM:
      return at(c.names, a);
    case Op::BINARY_OP: return binop_sym(a);
    case Op::INPLACE_OP: return std::string(binop_sym(a)) + "=";
    case Op::UNARY_OP: {
      static const char* const kUnary[] = {"+", "-", "not", "~"};
      return a < 4 ? kUnary[a] : "?";
    }
    case Op::COMPARE_OP: return cmpop_sym(a);
    case Op::FORMAT_VALUE: {
      static const char* const kConv[] = {"", "!s", "!r", "!a"};
      std::string s = kConv[a & 3];
      if (a & 4) s += s.empty() ? "with spec" : " with spec";
      return s;
    }
    case Op::MAKE_FUNCTION: {
      std::string s;
      if (a & 1) s += "defaults";
      if (a & 2) s += s.empty() ? "kwdefaults" : ", kwdefaults";
      if (a & 8) s += s.empty() ? "closure" : ", closure";
      return s;
    }
    case Op::UNPACK_EX: return detail::cat(a & 0xff, " before, ", a >> 8, " after");
    default: return is_jump(in.op()) ? detail::cat("to ", a) : "";
  }
}

const char* kind_label(CodeKind k) {
  switch (k) {
    case CodeKind::Module: return "module";
    case CodeKind::Function: return "function";
    case CodeKind::Class: return "class";
    case CodeKind::Lambda: return "lambda";
    case CodeKind::Comprehension: return "comprehension";
  }
  return "?";
}

std::string join(const std::vector<std::string>& v) {
  std::string s;
  for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + v[i];
  return s;
}

}  // namespace

std::string disassemble(const Code& c) {
  std::string out = detail::cat("code ", c.qualname, " (", kind_label(c.code_kind), ", ", c.filename, ":",
                                c.firstline, ") argcount=", c.argcount, " kwonly=", c.kwonlyargcount,
                                c.has_varargs ? " *args" : "", c.has_varkw ? " **kwargs" : "",
                                " max_stack=", c.max_stack, "\n");
  if (!c.varnames.empty()) out += "  varnames: " + join(c.varnames) + "\n";
  if (!c.cellvars.empty()) {
    out += "  cellvars: " + join(c.cellvars);
    for (size_t i = 0; i < c.cell_param.size(); ++i)
      if (c.cell_param[i] >= 0) out += detail::cat(" [", c.cellvars[i], "=arg ", c.cell_param[i], "]");
    out += "\n";
  }
  if (!c.freevars.empty()) out += "  freevars: " + join(c.freevars) + "\n";
  char buf[96];
  for (size_t i = 0; i < c.code.size(); ++i) {
    const Instr in = c.code[i];
    const Pos p = i < c.positions.size() ? c.positions[i] : Pos{};
    std::string pos = detail::cat(p.line, ":", p.col);
    std::snprintf(buf, sizeof buf, "%4zu %7s  %s", i, pos.c_str(), op_name(in.op()));
    std::string line = buf;
    if (has_arg(in.op())) {
      line.resize(std::max<size_t>(line.size(), 38), ' ');
      line += detail::cat(" ", in.arg());
      std::string what = describe_arg(c, in);
      if (!what.empty()) line += detail::cat(" (", what, ")");
    }
    out += line;
    out += '\n';
  }
  for (const Obj& k : c.consts)
    if (const Code* nested = k.as<Code>()) {
      out += '\n';
      out += disassemble(*nested);
    }
  return out;
}

}  // namespace kiln::lang

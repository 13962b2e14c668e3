#include "core/kernel_ir.h"

#include <cstdio>

#include "core/error.h"

namespace kiln::kir {

const char* op_name(Op op) {
  switch (op) {
#define KILN_KIR_NAME(e) \
  case Op::e:            \
    return #e;
    KILN_KIR_OPS(KILN_KIR_NAME)
#undef KILN_KIR_NAME
  }
  return "?";
}

int op_arity(Op op) {
  switch (op) {
    case Op::Load:
    case Op::Const:
    case Op::Param:
    case Op::RowValue:
    case Op::Index:
      return 0;
    case Op::Add:
    case Op::Sub:
    case Op::Mul:
    case Op::Div:
    case Op::Max:
    case Op::Min:
    case Op::Pow:
    case Op::Lt:
    case Op::Le:
    case Op::Gt:
    case Op::Ge:
    case Op::Eq:
    case Op::Ne:
    case Op::And:
    case Op::Or:
      return 2;
    case Op::Select:
      return 3;
    default:
      return 1;
  }
}

namespace {

const char* inner_name(Inner i) {
  switch (i) {
    case Inner::Contiguous: return "contiguous";
    case Inner::Broadcast: return "broadcast";
    case Inner::Strided: return "strided";
  }
  return "?";
}

const char* reduce_name(ReduceOp r) {
  switch (r) {
    case ReduceOp::Sum: return "sum";
    case ReduceOp::Max: return "max";
    case ReduceOp::Min: return "min";
  }
  return "?";
}

std::string expr_text(const Expr& e) {
  std::string s = std::string(op_name(e.op)) + "." + std::string(dtype_name(e.type));
  char buf[64];
  switch (e.op) {
    case Op::Load:
    case Op::Param:
    case Op::RowValue:
    case Op::Index:
      std::snprintf(buf, sizeof buf, " #%d", e.slot);
      return s + buf;
    case Op::Gather:
      std::snprintf(buf, sizeof buf, " #%d %%%d", e.slot, e.a);
      return s + buf;
    case Op::Const:
      std::snprintf(buf, sizeof buf, " %.9g", e.imm);
      return s + buf;
    default:
      break;
  }
  for (ExprId x : {e.a, e.b, e.c})
    if (x >= 0) s += " %" + std::to_string(x);
  return s;
}

}  // namespace

// kernel fused_mul_add pointwise rank 2
//   operand 0: f32 contiguous in
//   %0 = Load.float32 #0
//   reduce 0: sum %3
//   store 2 <- %5 per_row
std::string Kernel::to_text() const {
  std::string s = "kernel " + name + (kind == Kind::Row ? " row" : " pointwise") + " rank " + std::to_string(rank) +
                  " params " + std::to_string(num_params) + (streams ? " streams" : "") + "\n";
  for (size_t i = 0; i < operands.size(); ++i)
    s += "  operand " + std::to_string(i) + ": " + std::string(dtype_name(operands[i].dtype)) + " " +
         inner_name(operands[i].inner) + (operands[i].output ? " out" : " in") + "\n";
  for (size_t i = 0; i < exprs.size(); ++i) s += "  %" + std::to_string(i) + " = " + expr_text(exprs[i]) + "\n";
  for (size_t i = 0; i < reductions.size(); ++i)
    s += "  reduce " + std::to_string(i) + ": " + reduce_name(reductions[i].op) + " %" +
         std::to_string(reductions[i].value) + "\n";
  for (const Store& st : stores)
    s += "  store " + std::to_string(st.operand) + (st.accumulate ? " += %" : " <- %") + std::to_string(st.value) +
         (st.offset >= 0 ? " at %" + std::to_string(st.offset) : "") + (st.per_row ? " per_row" : "") + "\n";
  return s;
}

bool Kernel::scatters() const {
  for (const Store& st : stores)
    if (st.offset >= 0 || st.accumulate) return true;
  return false;
}

// ---- Builder ----------------------------------------------------------------------------------
ExprId Builder::add(Expr e) {
  // Hash-consing over a window: fused groups are tens of expressions.
  const size_t n = k_.exprs.size(), from = n > 256 ? n - 256 : 0;
  for (size_t i = n; i-- > from;)
    if (k_.exprs[i] == e) return ExprId(i);
  k_.exprs.push_back(e);
  return ExprId(n);
}

ExprId Builder::load(int32_t operand) {
  return add({.op = Op::Load, .type = k_.operands.at(size_t(operand)).dtype, .slot = operand});
}

ExprId Builder::constant(double v, DType type) { return add({.op = Op::Const, .type = type, .imm = v}); }

ExprId Builder::param(int32_t slot, DType type) {
  if (slot >= k_.num_params) k_.num_params = slot + 1;
  return add({.op = Op::Param, .type = type, .slot = slot});
}

ExprId Builder::row_value(int32_t reduction) {
  return add({.op = Op::RowValue, .type = type(k_.reductions.at(size_t(reduction)).value), .slot = reduction});
}

ExprId Builder::index(int32_t dim) { return add({.op = Op::Index, .type = DType::Int64, .slot = dim}); }

ExprId Builder::gather(int32_t operand, ExprId offset) {
  if (offset < 0) return -1;
  KILN_CHECK(type(offset) == DType::Int64, Runtime, "kernel IR: a gather offset of ", dtype_name(type(offset)));
  return add({.op = Op::Gather, .type = k_.operands.at(size_t(operand)).dtype, .a = offset, .slot = operand});
}

ExprId Builder::cast(ExprId a, DType t) {
  if (a < 0 || type(a) == t) return a;
  const Expr& e = k_.exprs[size_t(a)];
  if (e.op == Op::Const) return constant(e.imm, t);
  return add({.op = Op::Cast, .type = t, .a = a});
}

ExprId Builder::unary(Op op, ExprId a) {
  if (a < 0) return -1;
  DType t = (op == Op::IsNan) ? DType::Bool : type(a);
  return add({.op = op, .type = t, .a = a});
}

ExprId Builder::binary(Op op, ExprId a, ExprId b) {
  if (a < 0 || b < 0) return -1;
  KILN_CHECK(type(a) == type(b), Runtime, "kernel IR: ", op_name(op), " of ", dtype_name(type(a)), " and ",
             dtype_name(type(b)));
  return add({.op = op, .type = type(a), .a = a, .b = b});
}

ExprId Builder::compare(Op op, ExprId a, ExprId b) {
  if (a < 0 || b < 0) return -1;
  KILN_CHECK(type(a) == type(b), Runtime, "kernel IR: ", op_name(op), " of ", dtype_name(type(a)), " and ",
             dtype_name(type(b)));
  return add({.op = op, .type = DType::Bool, .a = a, .b = b});
}

ExprId Builder::select(ExprId c, ExprId a, ExprId b) {
  if (c < 0 || a < 0 || b < 0) return -1;
  KILN_CHECK(type(c) == DType::Bool && type(a) == type(b), Runtime, "kernel IR: Select types");
  return add({.op = Op::Select, .type = type(a), .a = a, .b = b, .c = c});
}

ExprId Builder::reduce(ReduceOp op, ExprId value) {
  if (value < 0) return -1;
  KILN_CHECK(k_.kind == Kind::Row, Runtime, "kernel IR: a reduction outside a Row kernel");
  k_.reductions.push_back({op, value});
  return row_value(int32_t(k_.reductions.size() - 1));
}

bool Kernel::streamable(const Store& s) const {
  return !s.per_row && s.offset < 0 && !s.accumulate && operands[size_t(s.operand)].inner == Inner::Contiguous;
}

int64_t Kernel::streamable_bytes_per_element() const {
  int64_t bytes = 0;
  for (const Store& s : stores)
    if (streamable(s)) bytes += int64_t(dtype_size(operands[size_t(s.operand)].dtype));
  return bytes;
}

}  // namespace kiln::kir

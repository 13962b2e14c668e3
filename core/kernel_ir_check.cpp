// The code generators' contract on kernel IR (both check it before
// emitting): ids point backwards, types are
// ones it lowers, each op meets its operand types. A kernel that breaks it
// is a bug upstream (fusion, an op's lowering); it must surface as an error
// naming the expression, not as an LLVM assertion or wrong code.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "core/error.h"
#include "core/kernel_ir.h"

namespace kiln::kir {
namespace {

using kir::ExprId;
using kir::Op;

bool lowered(DType t) {
  return t == DType::Bool || t == DType::Int32 || t == DType::Int64 || t == DType::Float32 || t == DType::Float64;
}
bool floating(DType t) { return t == DType::Float32 || t == DType::Float64; }

constexpr int kNumOps = 0
#define KILN_KIR_COUNT(e) +1
    KILN_KIR_OPS(KILN_KIR_COUNT)
#undef KILN_KIR_COUNT
    ;

class Checker {
 public:
  explicit Checker(const kir::Kernel& k) : k_(k) {}

  void run() {
    need(k_.rank >= 1 && k_.rank <= 64, "rank ", k_.rank);
    need(k_.num_params >= 0, "num_params ", k_.num_params);
    for (size_t i = 0; i < k_.operands.size(); ++i)
      need(lowered(k_.operands[i].dtype), "operand ", i, " has dtype ", dtype_name(k_.operands[i].dtype),
           " (the code generator lowers bool, int32, int64, float32, float64)");
    for (size_t i = 0; i < k_.exprs.size(); ++i) expr(ExprId(i));
    if (k_.kind == kir::Kind::Pointwise) need(k_.reductions.empty(), "a pointwise kernel has reductions");
    for (size_t r = 0; r < k_.reductions.size(); ++r) reduction(int32_t(r));
    for (const kir::Store& s : k_.stores) store(s);
  }

 private:
  template <class... A>
  void need(bool ok, const A&... what) const {
    KILN_CHECK(ok, Runtime, "kernel IR of ", k_.name, ": ", what...);
  }

  std::string text(ExprId e) const {
    const kir::Expr& x = k_.exprs[size_t(e)];
    std::string s = "%" + std::to_string(e) + " = " + kir::op_name(x.op) + "." + std::string(dtype_name(x.type));
    if (x.op == Op::Load || x.op == Op::Param || x.op == Op::RowValue || x.op == Op::Index)
      return s + " #" + std::to_string(x.slot);
    if (x.op == Op::Gather) s += " #" + std::to_string(x.slot);
    for (ExprId o : {x.a, x.b, x.c})
      if (o != -1) s += " %" + std::to_string(o);
    return s;
  }

  DType type(ExprId e) const { return k_.exprs[size_t(e)].type; }

  void expr(ExprId e) {
    const kir::Expr& x = k_.exprs[size_t(e)];
    need(int(x.op) < kNumOps, "%", e, " has op code ", int(x.op));
    const std::string t = text(e);
    need(lowered(x.type), t, ": type ", dtype_name(x.type), " is not lowered");
    const int arity = kir::op_arity(x.op);
    const ExprId ops[3] = {x.a, x.b, x.c};
    for (int i = 0; i < 3; ++i) {
      if (i < arity) {
        need(ops[i] >= 0 && ops[i] < e, t, ": operand ", i, " is not an earlier expression");
      } else {
        need(ops[i] == -1, t, ": ", kir::op_name(x.op), " takes ", arity, " operands");
      }
    }
    auto same = [&](ExprId o) { need(type(o) == x.type, t, ": operand %", o, " is ", dtype_name(type(o))); };
    switch (x.op) {
      case Op::Load:
        need(x.slot >= 0 && size_t(x.slot) < k_.operands.size(), t, ": no operand ", x.slot);
        need(k_.operands[size_t(x.slot)].dtype == x.type, t, ": operand ", x.slot, " is ",
             dtype_name(k_.operands[size_t(x.slot)].dtype));
        break;
      case Op::Gather:
        need(x.slot >= 0 && size_t(x.slot) < k_.operands.size(), t, ": no operand ", x.slot);
        need(k_.operands[size_t(x.slot)].dtype == x.type, t, ": operand ", x.slot, " is ",
             dtype_name(k_.operands[size_t(x.slot)].dtype));
        need(!k_.operands[size_t(x.slot)].output, t, ": gathers from an output");
        need(type(x.a) == DType::Int64, t, ": the offset %", x.a, " is ", dtype_name(type(x.a)));
        break;
      case Op::Index:
        need(x.type == DType::Int64, t, ": Index yields int64");
        need(x.slot >= 0 && x.slot < k_.rank, t, ": no domain dim ", x.slot);
        break;
      case Op::Const:
        need(floating(x.type) || (std::isfinite(x.imm) && std::fabs(x.imm) < 9.2e18), t, ": constant ", x.imm,
             " is not a ", dtype_name(x.type));
        break;
      case Op::Param: need(x.slot >= 0 && x.slot < k_.num_params, t, ": no param ", x.slot); break;
      case Op::RowValue:
        need(k_.kind == kir::Kind::Row, t, ": RowValue outside a Row kernel");
        need(x.slot >= 0 && size_t(x.slot) < k_.reductions.size(), t, ": no reduction ", x.slot);
        {
          const ExprId v = k_.reductions[size_t(x.slot)].value;
          need(v >= 0 && size_t(v) < k_.exprs.size() && type(v) == x.type, t, ": reduction ", x.slot,
               " has another type");
        }
        break;
      case Op::Cast: break;
      case Op::Add:
      case Op::Sub:
      case Op::Mul:
        same(x.a), same(x.b);
        need(x.type != DType::Bool, t, ": ", kir::op_name(x.op), " of bool");
        break;
      case Op::Div:
      case Op::Pow:
        same(x.a), same(x.b);
        need(floating(x.type), t, ": ", kir::op_name(x.op), " needs floating operands");
        break;
      case Op::Max:
      case Op::Min: same(x.a), same(x.b); break;
      case Op::Neg:
      case Op::Abs:
      case Op::Floor:
      case Op::Ceil:
      case Op::Trunc:
      case Op::Round:
        same(x.a);
        need(x.type != DType::Bool, t, ": ", kir::op_name(x.op), " of bool");
        break;
      case Op::Exp:
      case Op::Log:
      case Op::Log1p:
      case Op::Sqrt:
      case Op::Rsqrt:
      case Op::Tanh:
      case Op::Erf:
      case Op::Sin:
      case Op::Cos:
        same(x.a);
        need(floating(x.type), t, ": ", kir::op_name(x.op), " needs a floating operand");
        break;
      case Op::Lt:
      case Op::Le:
      case Op::Gt:
      case Op::Ge:
      case Op::Eq:
      case Op::Ne:
        need(x.type == DType::Bool, t, ": a comparison yields bool");
        need(type(x.a) == type(x.b), t, ": compares ", dtype_name(type(x.a)), " with ", dtype_name(type(x.b)));
        break;
      case Op::And:
      case Op::Or:
        need(x.type == DType::Bool && type(x.a) == DType::Bool && type(x.b) == DType::Bool, t, ": needs bools");
        break;
      case Op::Not: need(x.type == DType::Bool && type(x.a) == DType::Bool, t, ": needs a bool"); break;
      case Op::IsNan: need(x.type == DType::Bool, t, ": IsNan yields bool"); break;
      case Op::Select:
        need(type(x.c) == DType::Bool, t, ": the condition %", x.c, " is ", dtype_name(type(x.c)));
        same(x.a), same(x.b);
        break;
    }
  }

  // The reductions a value reads through RowValue, directly or not.
  int32_t last_row_value(ExprId root) const {
    std::vector<char> seen(k_.exprs.size(), 0);
    std::vector<ExprId> work{root};
    int32_t last = -1;
    while (!work.empty()) {
      ExprId e = work.back();
      work.pop_back();
      if (seen[size_t(e)]) continue;
      seen[size_t(e)] = 1;
      const kir::Expr& x = k_.exprs[size_t(e)];
      if (x.op == Op::RowValue) last = std::max(last, x.slot);
      for (ExprId o : {x.a, x.b, x.c})
        if (o >= 0) work.push_back(o);
    }
    return last;
  }

  void reduction(int32_t r) {
    const kir::Reduction& red = k_.reductions[size_t(r)];
    need(red.value >= 0 && size_t(red.value) < k_.exprs.size(), "reduction ", r, ": no expression %", red.value);
    need(int(red.op) <= int(kir::ReduceOp::Min), "reduction ", r, ": reduce op ", int(red.op));
    need(!(red.op == kir::ReduceOp::Sum && type(red.value) == DType::Bool), "reduction ", r, ": sum of bool ",
         text(red.value));
    need(last_row_value(red.value) < r, "reduction ", r, ": ", text(red.value),
         " reads a reduction that is not finished yet");
  }

  void store(const kir::Store& s) {
    need(s.operand >= 0 && size_t(s.operand) < k_.operands.size(), "store to operand ", s.operand, ": no such operand");
    need(s.value >= 0 && size_t(s.value) < k_.exprs.size(), "store to operand ", s.operand, ": no expression %",
         s.value);
    const kir::Operand& o = k_.operands[size_t(s.operand)];
    need(o.output, "store to operand ", s.operand, ": it is an input");
    need(!s.per_row || k_.kind == kir::Kind::Row, "store to operand ", s.operand, ": per_row in a pointwise kernel");
    const bool scatter = s.offset >= 0 || s.accumulate;
    need(s.per_row || scatter || o.inner != kir::Inner::Broadcast, "store to operand ", s.operand,
         ": every element of a row would go to one address (inner broadcast)");
    if (!scatter) return;
    need(!s.per_row, "store to operand ", s.operand, ": a per-row scatter");
    need(!(s.accumulate && o.dtype == DType::Bool), "store to operand ", s.operand, ": adds into bool");
    need(s.offset == -1 || (s.offset >= 0 && size_t(s.offset) < k_.exprs.size() && type(s.offset) == DType::Int64),
         "store to operand ", s.operand, ": the offset is not an int64 expression");
  }

  const kir::Kernel& k_;
};

}  // namespace

void check_kernel(const Kernel& k) { Checker(k).run(); }

}  // namespace kiln::kir

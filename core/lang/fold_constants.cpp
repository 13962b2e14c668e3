// Constant folding over bytecode: an operator whose operands are all
// LOAD_CONSTs just before it (with no jump landing in between) becomes one
// LOAD_CONST of the result. Results follow Python exactly; anything that
// would raise or overflow int64 is left for the VM to evaluate (and report).
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <unordered_map>

#include "core/lang/peephole.h"

namespace kiln::lang {

namespace {

constexpr double kExactIntLimit = 9007199254740992.0;  // 2**53: int -> double is exact below

bool int_pow(int64_t base, int64_t exp, int64_t& out) {
  int64_t result = 1;
  while (exp > 0) {
    if ((exp & 1) && __builtin_mul_overflow(result, base, &result)) return false;
    exp >>= 1;
    if (exp > 0 && __builtin_mul_overflow(base, base, &base)) return false;
  }
  out = result;
  return true;
}

bool fold_int(BinOpKind op, int64_t a, int64_t b, Obj& out) {
  int64_t r = 0;
  switch (op) {
    case BinOpKind::Add: if (__builtin_add_overflow(a, b, &r)) return false; break;
    case BinOpKind::Sub: if (__builtin_sub_overflow(a, b, &r)) return false; break;
    case BinOpKind::Mult: if (__builtin_mul_overflow(a, b, &r)) return false; break;
    case BinOpKind::FloorDiv:
      if (b == 0 || (a == INT64_MIN && b == -1)) return false;
      r = a / b;
      if (a % b != 0 && ((a < 0) != (b < 0))) --r;
      break;
    case BinOpKind::Mod:
      if (b == 0) return false;
      r = b == -1 ? 0 : a % b;
      if (r != 0 && ((r < 0) != (b < 0))) r += b;
      break;
    case BinOpKind::Div:
      if (b == 0 || std::fabs(double(a)) > kExactIntLimit || std::fabs(double(b)) > kExactIntLimit) return false;
      out = Obj::from_float(double(a) / double(b));
      return true;
    case BinOpKind::Pow:
      if (b < 0) {  // Python: int ** negative int is a float
        if (a == 0) return false;
        double f = std::pow(double(a), double(b));
        if (!std::isfinite(f)) return false;
        out = Obj::from_float(f);
        return true;
      }
      if (!int_pow(a, b, r)) return false;
      break;
    case BinOpKind::BitAnd: r = a & b; break;
    case BinOpKind::BitOr: r = a | b; break;
    case BinOpKind::BitXor: r = a ^ b; break;
    case BinOpKind::LShift:
      if (b < 0 || b >= 63) return false;
      r = int64_t(uint64_t(a) << b);
      if ((r >> b) != a) return false;
      break;
    case BinOpKind::RShift:
      if (b < 0) return false;
      r = b >= 63 ? (a < 0 ? -1 : 0) : a >> b;
      break;
    case BinOpKind::MatMult: return false;
  }
  out = Obj::from_int(r);
  return true;
}

// Python's float // and %, which take the sign of the divisor.
void float_divmod(double a, double b, double& div, double& mod) {
  mod = std::fmod(a, b);
  double d = (a - mod) / b;
  if (mod != 0) {
    if ((b < 0) != (mod < 0)) {
      mod += b;
      d -= 1.0;
    }
  } else {
    mod = std::copysign(0.0, b);
  }
  if (d != 0) {
    div = std::floor(d);
    if (d - div > 0.5) div += 1.0;
  } else {
    div = std::copysign(0.0, a / b);
  }
}

bool fold_float(BinOpKind op, double a, double b, Obj& out) {
  double r = 0, div = 0, mod = 0;
  switch (op) {
    case BinOpKind::Add: r = a + b; break;
    case BinOpKind::Sub: r = a - b; break;
    case BinOpKind::Mult: r = a * b; break;
    case BinOpKind::Div:
      if (b == 0) return false;
      r = a / b;
      break;
    case BinOpKind::FloorDiv:
    case BinOpKind::Mod:
      if (b == 0) return false;
      float_divmod(a, b, div, mod);
      r = op == BinOpKind::FloorDiv ? div : mod;
      break;
    case BinOpKind::Pow:
      if (!std::isfinite(a) || !std::isfinite(b)) return false;
      if (a == 0 && b < 0) return false;               // ZeroDivisionError
      if (a < 0 && b != std::floor(b)) return false;   // a complex result
      r = std::pow(a, b);
      if (!std::isfinite(r)) return false;             // OverflowError
      break;
    default:
      return false;
  }
  out = Obj::from_float(r);
  return true;
}

bool fold_binary(BinOpKind op, const Obj& a, const Obj& b, Obj& out) {
  if (!a.is_number() || !b.is_number()) return false;
  if (a.is_intlike() && b.is_intlike()) {
    // bool & bool stays a bool in Python; leave those to the VM.
    bool bitwise = op == BinOpKind::BitAnd || op == BinOpKind::BitOr || op == BinOpKind::BitXor;
    if (bitwise && a.is_bool() && b.is_bool()) return false;
    return fold_int(op, a.as_int(), b.as_int(), out);
  }
  // Mixed int/float: ints beyond 2**53 would round differently from CPython's exact conversion check.
  for (const Obj* x : {&a, &b})
    if (x->is_intlike() && std::fabs(double(x->as_int())) > kExactIntLimit) return false;
  return fold_float(op, a.as_number(), b.as_number(), out);
}

bool fold_unary(UnaryOpKind op, const Obj& a, Obj& out) {
  if (a.is_intlike()) {
    int64_t v = a.as_int();
    switch (op) {
      case UnaryOpKind::USub: if (v == INT64_MIN) return false; out = Obj::from_int(-v); return true;
      case UnaryOpKind::UAdd: out = Obj::from_int(v); return true;
      case UnaryOpKind::Invert: out = Obj::from_int(~v); return true;
      case UnaryOpKind::Not: return false;
    }
  }
  if (a.is_float()) {
    if (op == UnaryOpKind::USub) { out = Obj::from_float(-a.as_float()); return true; }
    if (op == UnaryOpKind::UAdd) { out = a; return true; }
  }
  return false;
}

// Indices of the `n` instructions before `i`, skipping NOPs, if they are
// all LOAD_CONSTs and no jump lands anywhere between the first and `i`.
bool const_operands(const Code& c, const std::vector<bool>& target, size_t i, size_t n, std::vector<size_t>& idx) {
  idx.clear();
  size_t j = i;
  while (idx.size() < n) {
    if (target[j]) return false;
    if (j == 0) return false;
    --j;
    Op op = c.code[j].op();
    if (op == Op::NOP) continue;
    if (op != Op::LOAD_CONST || c.code[j].arg() >= c.consts.size()) return false;
    idx.push_back(j);
  }
  if (n == 0 && target[i]) return false;
  std::reverse(idx.begin(), idx.end());
  return true;
}

// Drops constants no LOAD_CONST uses any more and merges equal ones.
void compact_consts(Code& c) {
  std::vector<Obj> consts;
  std::unordered_map<std::string, uint32_t> slot;
  std::vector<int64_t> remap(c.consts.size(), -1);
  for (Instr& in : c.code) {
    if (in.op() != Op::LOAD_CONST) continue;
    uint32_t old = in.arg();
    if (old >= remap.size()) continue;  // malformed hand-built code: leave it alone
    if (remap[old] < 0) {
      auto [it, fresh] = slot.emplace(const_key(c.consts[old]), uint32_t(consts.size()));
      if (fresh) consts.push_back(c.consts[old]);
      remap[old] = it->second;
    }
    in.set_arg(uint32_t(remap[old]));
  }
  c.consts = std::move(consts);
}

}  // namespace

std::string const_key(const Obj& v) {
  switch (v.kind()) {
    case Kind::None: return "N";
    case Kind::Bool: return v.as_bool() ? "B1" : "B0";
    case Kind::Int: return detail::cat("I", v.as_int());
    case Kind::Float: return detail::cat("F", std::bit_cast<uint64_t>(v.as_float()));
    case Kind::Str: return detail::cat("S", v.as<StrObj>()->value);
    case Kind::Bytes: return detail::cat("Y", v.as<BytesObj>()->value);
    case Kind::Tuple: {
      std::string k = "T(";
      for (const Obj& x : v.as<TupleObj>()->items) {
        std::string s = const_key(x);
        k += detail::cat(s.size(), ":", s);
      }
      k += ')';
      return k;
    }
    default: return detail::cat("P", reinterpret_cast<uintptr_t>(v.heap()));
  }
}

void fold_constants(Code& c) {
  std::vector<bool> target(c.code.size() + 1, false);
  for (const Instr& in : c.code)
    if (is_jump(in.op()) && in.arg() < target.size()) target[in.arg()] = true;
  std::vector<size_t> idx;
  for (size_t i = 0; i < c.code.size(); ++i) {
    const Instr in = c.code[i];
    Obj result;
    bool folded = false;
    if (in.op() == Op::BINARY_OP && const_operands(c, target, i, 2, idx)) {
      folded = fold_binary(BinOpKind(in.arg()), c.consts[c.code[idx[0]].arg()], c.consts[c.code[idx[1]].arg()], result);
    } else if (in.op() == Op::UNARY_OP && const_operands(c, target, i, 1, idx)) {
      folded = fold_unary(UnaryOpKind(in.arg()), c.consts[c.code[idx[0]].arg()], result);
    } else if (in.op() == Op::BUILD_TUPLE && const_operands(c, target, i, in.arg(), idx)) {
      std::vector<Obj> items;
      for (size_t j : idx) items.push_back(c.consts[c.code[j].arg()]);
      result = make_tuple(std::move(items));
      folded = true;
    }
    if (!folded || c.consts.size() >= kMaxArg) continue;
    for (size_t j : idx) c.code[j] = Instr(Op::NOP);
    c.code[i] = Instr(Op::LOAD_CONST, uint32_t(c.consts.size()));
    c.consts.push_back(std::move(result));
  }
  compact_consts(c);
}

}  // namespace kiln::lang

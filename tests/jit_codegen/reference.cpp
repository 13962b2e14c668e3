#include "tests/jit_codegen/reference.h"

#include <cmath>
#include <cstring>
#include <limits>
#include <optional>
#include <stdexcept>
#include <vector>

namespace kiln::jit::ref {
namespace {

using kir::Op;

bool fl(DType t) { return t == DType::Float32 || t == DType::Float64; }

// Floats in f (a float32 value when the type is Float32), ints and bools in i.
struct V {
  double f = 0;
  int64_t i = 0;
};

double rounded(DType t, long double x) { return t == DType::Float32 ? double(float(x)) : double(x); }

int64_t wrapped(DType t, uint64_t x) {
  if (t == DType::Int32) return int32_t(uint32_t(x));
  if (t == DType::Bool) return x != 0;
  return int64_t(x);
}

V num(DType t, long double x) { return {rounded(t, x), 0}; }

// a op b in the type itself (SSE arithmetic: no excess precision).
template <class F>
V arith(DType t, V a, V b, F op) {
  if (t == DType::Float32) return {double(op(float(a.f), float(b.f))), 0};
  return {op(a.f, b.f), 0};
}
V integer(DType t, uint64_t x) { return {0, wrapped(t, x)}; }

V cast(V v, DType from, DType to) {
  if (from == to) return v;
  if (to == DType::Bool) return {0, fl(from) ? int64_t(v.f != 0) : int64_t(v.i != 0)};  // NaN != 0
  if (fl(to)) return num(to, fl(from) ? v.f : double(v.i));
  if (fl(from)) return integer(to, uint64_t(int64_t(std::trunc(v.f))));
  return integer(to, uint64_t(v.i));
}

// f(x) computed in long double (double for float32 inputs is exact enough).
long double transcendental(Op op, long double x) {
  switch (op) {
    case Op::Exp: return std::exp(x);
    case Op::Log: return std::log(x);
    case Op::Log1p: return std::log1p(x);
    case Op::Tanh: return std::tanh(x);
    case Op::Erf: return std::erf(x);
    case Op::Sin: return std::sin(x);
    case Op::Cos: return std::cos(x);
    case Op::Sqrt: return std::sqrt(x);
    default: throw std::logic_error("not a transcendental");
  }
}

size_t elem_size(DType t) {
  switch (t) {
    case DType::Bool: return 1;
    case DType::Int32:
    case DType::Float32: return 4;
    default: return 8;
  }
}

V read(DType t, const char* p) {
  switch (t) {
    case DType::Bool: return {0, *p != 0};
    case DType::Int32: {
      int32_t v;
      std::memcpy(&v, p, 4);
      return {0, v};
    }
    case DType::Int64: {
      int64_t v;
      std::memcpy(&v, p, 8);
      return {0, v};
    }
    case DType::Float32: {
      float v;
      std::memcpy(&v, p, 4);
      return {v, 0};
    }
    default: {
      double v;
      std::memcpy(&v, p, 8);
      return {v, 0};
    }
  }
}

void write(DType t, char* p, V v) {
  switch (t) {
    case DType::Bool: *p = char(v.i != 0); break;
    case DType::Int32: {
      int32_t x = int32_t(v.i);
      std::memcpy(p, &x, 4);
      break;
    }
    case DType::Int64: std::memcpy(p, &v.i, 8); break;
    case DType::Float32: {
      float x = float(v.f);
      std::memcpy(p, &x, 4);
      break;
    }
    default: std::memcpy(p, &v.f, 8); break;
  }
}

class Interpreter {
 public:
  Interpreter(const kir::Kernel& k, char* const* ptrs, const int64_t* sizes, const int64_t* strides,
              const double* params)
      : k_(k), ptrs_(ptrs), sizes_(sizes), strides_(strides), params_(params), idx_(size_t(k.rank)) {}

  void pointwise(int64_t begin, int64_t end) {
    for (int64_t flat = begin; flat < end; ++flat) {
      int64_t q = flat;
      for (int d = k_.rank - 1; d >= 0; --d) {
        idx_[size_t(d)] = q % sizes_[d];
        q /= sizes_[d];
      }
      element_stores();
    }
  }

  void rows(int64_t begin, int64_t end) {
    const int64_t n = sizes_[k_.rank - 1];
    for (int64_t r = begin; r < end; ++r) {
      int64_t q = r;
      for (int d = k_.rank - 2; d >= 0; --d) {
        idx_[size_t(d)] = q % sizes_[d];
        q /= sizes_[d];
      }
      row_values_.assign(k_.reductions.size(), V{});
      for (size_t j = 0; j < k_.reductions.size(); ++j) row_values_[j] = reduce(k_.reductions[j], n);
      idx_.back() = 0;
      fresh();
      std::vector<V> values;
      for (const kir::Store& s : k_.stores) values.push_back(s.per_row ? eval(s.value) : V{});
      for (size_t i = 0; i < k_.stores.size(); ++i) {
        const kir::Store& s = k_.stores[i];
        if (!s.per_row) continue;
        const DType t = k_.operands[size_t(s.operand)].dtype;
        write(t, address(s.operand, /*last_stride=*/false), cast(values[i], type(s.value), t));
      }
      for (int64_t e = 0; e < n; ++e) {
        idx_.back() = e;
        element_stores();
      }
    }
  }

 private:
  DType type(kir::ExprId e) const { return k_.exprs[size_t(e)].type; }
  void fresh() { memo_.assign(k_.exprs.size(), std::nullopt); }

  char* address(int32_t operand, bool last_stride = true) const {
    const DType t = k_.operands[size_t(operand)].dtype;
    int64_t off = 0;
    for (int d = 0; d < k_.rank; ++d)
      if (last_stride || d < k_.rank - 1) off += idx_[size_t(d)] * strides_[int64_t(operand) * k_.rank + d];
    return ptrs_[operand] + off * int64_t(elem_size(t));
  }

  void element_stores() {
    fresh();
    std::vector<V> values, offsets;
    for (const kir::Store& s : k_.stores) {
      values.push_back(s.per_row ? V{} : eval(s.value));
      offsets.push_back(s.per_row || s.offset < 0 ? V{} : eval(s.offset));
    }
    for (size_t i = 0; i < k_.stores.size(); ++i) {
      const kir::Store& s = k_.stores[i];
      if (s.per_row) continue;
      const DType t = k_.operands[size_t(s.operand)].dtype;
      char* at = address(s.operand) + offsets[i].i * int64_t(elem_size(t));
      V v = cast(values[i], type(s.value), t);
      if (s.accumulate) {  // in the element's type, as one add
        const V old = read(t, at);
        v = fl(t) ? arith(t, old, v, [](auto p, auto q) { return p + q; }) : integer(t, uint64_t(old.i) + uint64_t(v.i));
      }
      write(t, at, v);
    }
  }

  V reduce(const kir::Reduction& red, int64_t n) {
    const DType t = type(red.value);
    long double sum = 0;
    uint64_t isum = 0;
    std::optional<V> best;
    for (int64_t e = 0; e < n; ++e) {
      idx_.back() = e;
      fresh();
      V x = eval(red.value);
      if (red.op == kir::ReduceOp::Sum) {
        sum += x.f;
        isum += uint64_t(x.i);
      } else if (!best) {
        best = x;
      } else if (fl(t)) {
        if (std::isnan(best->f)) continue;
        const bool better = red.op == kir::ReduceOp::Max ? x.f > best->f : x.f < best->f;
        if (std::isnan(x.f) || better) best = x;
      } else {
        const bool better = red.op == kir::ReduceOp::Max ? x.i > best->i : x.i < best->i;
        if (better) best = x;
      }
    }
    if (red.op == kir::ReduceOp::Sum) return fl(t) ? num(t, sum) : integer(t, isum);
    if (best) return *best;
    // An empty row: the identity.
    const bool max = red.op == kir::ReduceOp::Max;
    if (fl(t)) return {max ? -INFINITY : INFINITY, 0};
    if (t == DType::Bool) return {0, max ? 0 : 1};
    if (t == DType::Int32) return {0, max ? std::numeric_limits<int32_t>::min() : std::numeric_limits<int32_t>::max()};
    return {0, max ? std::numeric_limits<int64_t>::min() : std::numeric_limits<int64_t>::max()};
  }

  V eval(kir::ExprId e) {
    if (memo_[size_t(e)]) return *memo_[size_t(e)];
    const kir::Expr& x = k_.exprs[size_t(e)];
    V v = compute(x);
    memo_[size_t(e)] = v;
    return v;
  }

  V compute(const kir::Expr& x) {
    const DType t = x.type;
    switch (x.op) {
      case Op::Load: return read(t, address(x.slot));
      case Op::Const: return cast(V{x.imm, 0}, DType::Float64, t);
      case Op::Param: return cast(V{params_[x.slot], 0}, DType::Float64, t);
      case Op::RowValue: return row_values_[size_t(x.slot)];
      case Op::Index: return {0, idx_[size_t(x.slot)]};
      case Op::Gather: return read(t, address(x.slot) + eval(x.a).i * int64_t(elem_size(t)));
      default: break;
    }
    const V a = x.a >= 0 ? eval(x.a) : V{};
    const V b = x.b >= 0 ? eval(x.b) : V{};
    const V c = x.c >= 0 ? eval(x.c) : V{};
    const DType ta = x.a >= 0 ? type(x.a) : t;
    const bool f = fl(t);
    switch (x.op) {
      case Op::Cast: return cast(a, ta, t);
      case Op::Add:
        return f ? arith(t, a, b, [](auto p, auto q) { return p + q; }) : integer(t, uint64_t(a.i) + uint64_t(b.i));
      case Op::Sub:
        return f ? arith(t, a, b, [](auto p, auto q) { return p - q; }) : integer(t, uint64_t(a.i) - uint64_t(b.i));
      case Op::Mul:
        return f ? arith(t, a, b, [](auto p, auto q) { return p * q; }) : integer(t, uint64_t(a.i) * uint64_t(b.i));
      case Op::Div: return arith(t, a, b, [](auto p, auto q) { return p / q; });
      case Op::Max:
      case Op::Min: {
        const bool max = x.op == Op::Max;
        if (!f) return {0, max ? std::max(a.i, b.i) : std::min(a.i, b.i)};
        if (std::isnan(a.f) || std::isnan(b.f)) return {NAN, 0};
        return {max ? (a.f > b.f ? a.f : b.f) : (a.f < b.f ? a.f : b.f), 0};
      }
      case Op::Pow: return num(t, std::pow((long double)a.f, (long double)b.f));
      case Op::Neg: return f ? V{-a.f, 0} : integer(t, 0 - uint64_t(a.i));
      case Op::Abs: return f ? V{std::fabs(a.f), 0} : integer(t, a.i < 0 ? 0 - uint64_t(a.i) : uint64_t(a.i));
      case Op::Floor: return f ? V{std::floor(a.f), 0} : a;
      case Op::Ceil: return f ? V{std::ceil(a.f), 0} : a;
      case Op::Trunc: return f ? V{std::trunc(a.f), 0} : a;
      case Op::Round: return f ? V{std::nearbyint(a.f), 0} : a;  // default rounding: half to even
      case Op::Rsqrt: return num(t, 1.0L / std::sqrt((long double)a.f));
      case Op::Exp:
      case Op::Log:
      case Op::Log1p:
      case Op::Sqrt:
      case Op::Tanh:
      case Op::Erf:
      case Op::Sin:
      case Op::Cos: return num(t, transcendental(x.op, a.f));
      case Op::Lt: return {0, fl(ta) ? a.f < b.f : a.i < b.i};
      case Op::Le: return {0, fl(ta) ? a.f <= b.f : a.i <= b.i};
      case Op::Gt: return {0, fl(ta) ? a.f > b.f : a.i > b.i};
      case Op::Ge: return {0, fl(ta) ? a.f >= b.f : a.i >= b.i};
      case Op::Eq: return {0, fl(ta) ? a.f == b.f : a.i == b.i};
      case Op::Ne: return {0, fl(ta) ? a.f != b.f : a.i != b.i};
      case Op::And: return {0, a.i && b.i};
      case Op::Or: return {0, a.i || b.i};
      case Op::Not: return {0, !a.i};
      case Op::IsNan: return {0, fl(ta) && std::isnan(a.f)};
      case Op::Select: return c.i ? a : b;
      default: break;
    }
    throw std::logic_error(std::string("reference: op ") + kir::op_name(x.op));
  }

  const kir::Kernel& k_;
  char* const* ptrs_;
  const int64_t* sizes_;
  const int64_t* strides_;
  const double* params_;
  std::vector<int64_t> idx_;
  std::vector<V> row_values_;
  std::vector<std::optional<V>> memo_;
};

}  // namespace

void run_reference(const kir::Kernel& k, char* const* ptrs, const int64_t* sizes, const int64_t* strides,
                   const double* params, int64_t begin, int64_t end) {
  Interpreter in(k, ptrs, sizes, strides, params);
  if (k.kind == kir::Kind::Pointwise) {
    in.pointwise(begin, end);
  } else {
    in.rows(begin, end);
  }
}

}  // namespace kiln::jit::ref

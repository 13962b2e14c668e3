#include "tests/gpu/random_kernels.h"

#include <algorithm>
#include <cmath>
#include <random>
#include <utility>
#include <vector>

namespace kiln::gpu::test {
namespace {

using kir::ExprId;
using kir::Inner;
using kir::Op;

bool floating(DType t) { return t == DType::Float32 || t == DType::Float64; }

constexpr DType kTypes[] = {DType::Bool, DType::Int32, DType::Int64, DType::Float32, DType::Float64};
constexpr DType kNumeric[] = {DType::Int32, DType::Int64, DType::Float32, DType::Float64};

class Generator {
 public:
  explicit Generator(uint64_t seed) : rng_(seed) {}

  kir::Kernel make(bool row) {
    k_.name = row ? "random_row" : "random_pointwise";
    k_.kind = row ? kir::Kind::Row : kir::Kind::Pointwise;
    k_.rank = 1 + int(rng_() % 4);
    const int inputs = 1 + int(rng_() % 4), outputs = 1 + int(rng_() % 3);
    for (int i = 0; i < inputs; ++i) k_.operands.push_back({any_type(), Inner(rng_() % 3), false});
    for (int i = 0; i < outputs; ++i) k_.operands.push_back({any_type(), Inner(rng_() % 3), true});

    for (int i = 0; i < inputs; ++i) pool_.push_back(b_.load(i));
    const int params = int(rng_() % 3);
    for (int p = 0; p < params; ++p) pool_.push_back(b_.param(p, any_type()));
    pool_.push_back(random_constant());
    const int n = 4 + int(rng_() % 20);
    for (int i = 0; i < n; ++i) {
      pool_.push_back(random_op());
      if (row && rng_() % 4 == 0) pool_.push_back(random_reduction());
    }
    for (int o = 0; o < outputs; ++o) {
      kir::Operand& op = k_.operands[size_t(inputs + o)];
      bool per_row = row && (op.inner == Inner::Broadcast || rng_() % 3 == 0);
      if (!row && op.inner == Inner::Broadcast) op.inner = Inner::Contiguous;  // element stores need an address each
      k_.stores.push_back({inputs + o, pick(), per_row});
    }
    return std::move(k_);
  }

 private:
  DType any_type() { return kTypes[rng_() % 5]; }
  DType numeric() { return kNumeric[rng_() % 4]; }
  DType real() { return rng_() % 2 ? DType::Float32 : DType::Float64; }

  // Mostly recent values (deep chains), sometimes any.
  ExprId pick() {
    if (rng_() % 3 == 0) return pool_[size_t(rng_() % pool_.size())];
    return pool_[pool_.size() - 1 - size_t(rng_() % std::min<size_t>(pool_.size(), 5))];
  }

  ExprId random_constant() {
    static const double floats[] = {0.0, -0.0, 1.0, -2.5, 0.1, 1e30, -1e-40, NAN, INFINITY, -INFINITY};
    static const double ints[] = {0, 1, -7, 2147483647.0, -2147483648.0, 4294967296.0, -9.0e15, 3.75};
    const DType t = any_type();
    if (floating(t)) return b_.constant(floats[rng_() % 10], t);
    return b_.constant(ints[rng_() % 8], t);
  }

  // e as a t. The Builder folds a cast constant into a constant, and a
  // non-finite or huge float is no integer constant: such a one becomes 1.
  ExprId as(ExprId e, DType t) {
    const kir::Expr& x = k_.exprs[size_t(e)];
    if (x.op == Op::Const && !floating(t) && !(std::isfinite(x.imm) && std::fabs(x.imm) < 9.2e18))
      return b_.constant(1, t);
    return b_.cast(e, t);
  }

  ExprId random_op() {
    const ExprId a = pick(), c = pick();
    const DType ta = b_.type(a);
    const DType num = ta == DType::Bool ? numeric() : ta;
    switch (rng_() % 16) {
      case 0: {
        const Op ops[] = {Op::Add, Op::Sub, Op::Mul, Op::Max, Op::Min};
        return b_.binary(ops[rng_() % 5], as(a, num), as(c, num));
      }
      case 1: {
        const DType t = floating(ta) ? ta : real();
        return b_.binary(rng_() % 2 ? Op::Div : Op::Pow, as(a, t), as(c, t));
      }
      case 2: {
        const Op ops[] = {Op::Neg, Op::Abs, Op::Floor, Op::Ceil, Op::Trunc, Op::Round};
        return b_.unary(ops[rng_() % 6], as(a, num));
      }
      case 3:
      case 4: {
        const Op ops[] = {Op::Exp, Op::Log, Op::Log1p, Op::Sqrt, Op::Rsqrt, Op::Tanh, Op::Erf, Op::Sin, Op::Cos};
        return b_.unary(ops[rng_() % 9], as(a, floating(ta) ? ta : real()));
      }
      case 5: {
        const Op ops[] = {Op::Lt, Op::Le, Op::Gt, Op::Ge, Op::Eq, Op::Ne};
        return b_.compare(ops[rng_() % 6], a, as(c, ta));
      }
      case 6: return b_.select(as(pick(), DType::Bool), a, as(c, ta));
      case 7: return b_.binary(rng_() % 2 ? Op::And : Op::Or, as(a, DType::Bool), as(c, DType::Bool));
      case 8: return b_.unary(Op::Not, as(a, DType::Bool));
      case 9: return b_.unary(Op::IsNan, a);
      case 10: return b_.binary(rng_() % 2 ? Op::Max : Op::Min, as(a, DType::Bool), as(c, DType::Bool));
      case 11: return random_constant();
      case 12: return b_.index(int32_t(rng_() % uint64_t(k_.rank)));
      case 13: {  // nothing runs the kernel: any offset is valid IR
        int32_t inputs = 0;
        while (!k_.operands[size_t(inputs)].output) ++inputs;
        return b_.gather(int32_t(rng_() % uint64_t(inputs)), as(a, DType::Int64));
      }
      default: return as(a, any_type());
    }
  }

  ExprId random_reduction() {
    const kir::ReduceOp op = kir::ReduceOp(rng_() % 3);
    ExprId v = pick();
    if (op == kir::ReduceOp::Sum && b_.type(v) == DType::Bool) v = as(v, numeric());
    return b_.reduce(op, v);
  }

  std::mt19937_64 rng_;
  kir::Kernel k_;
  kir::Builder b_{k_};
  std::vector<ExprId> pool_;
};

}  // namespace

kir::Kernel random_kernel(uint64_t seed, bool row) { return Generator(seed).make(row); }

}  // namespace kiln::gpu::test

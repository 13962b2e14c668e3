// Pointwise kernels compiled by the LLVM backend against the reference
// interpreter: every op and type, every cast, ranks 1-4 with contiguous,
// broadcast and strided operands, sizes with vector tails, and [begin, end)
// pieces that start and end mid-row.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "jit/llvm_backend.h"
#include "tests/jit_codegen/kernel_args.h"

namespace kiln::jit::test {
namespace {

using kir::Inner;
using kir::Op;

const DType kAll[] = {DType::Bool, DType::Int32, DType::Int64, DType::Float32, DType::Float64};
bool floating(DType t) { return t == DType::Float32 || t == DType::Float64; }
std::string name(DType t) { return std::string(dtype_name(t)); }

kir::KernelFn compile(const kir::Kernel& k) { return LlvmBackend::get().compile(k).fn; }

// Tolerances: exact ops must match bit for bit (0); libmvec/libm results a few ulp.
Tolerance for_op(Op op, DType t) {
  const bool f32 = t == DType::Float32;
  switch (op) {
    case Op::Exp:
    case Op::Log:
    case Op::Log1p:
    case Op::Tanh:
    case Op::Erf:
    case Op::Sin:
    case Op::Cos:
    case Op::Pow: return {f32 ? 1e-6 : 2e-15, 1e-30};
    case Op::Rsqrt: return {f32 ? 2.5e-7 : 4.5e-16, 0};  // 1 / sqrt(x): two roundings
    default: return {};
  }
}

// Every unary op on every type it is lowered for, sizes with a vector tail.
TEST(LlvmPointwise, UnaryOps) {
  const Op ops[] = {Op::Neg,   Op::Abs,  Op::Floor, Op::Ceil, Op::Trunc, Op::Round, Op::Exp, Op::Log,
                    Op::Log1p, Op::Sqrt, Op::Rsqrt, Op::Tanh, Op::Erf,   Op::Sin,   Op::Cos};
  int checked = 0;
  for (DType t : kAll) {
    for (Op op : ops) {
      const bool math = op >= Op::Exp && op <= Op::Cos;
      if ((math && !floating(t)) || (t == DType::Bool)) continue;
      kir::Kernel k =
          make_kernel("unary", kir::Kind::Pointwise, 2, {{t, Inner::Contiguous, false}, {t, Inner::Contiguous, true}},
                      [&](kir::Builder& b) { add_store(b, 1, b.unary(op, b.load(0))); });
      Args args(k, {3, 45});
      if (op == Op::Log || op == Op::Log1p || op == Op::Sqrt || op == Op::Rsqrt)  // mostly inside the domain
        args.fill(0, [](std::mt19937_64& r) {
          return r() % 8 ? std::exp(std::uniform_real_distribution<double>(-9, 6)(r)) - (r() % 2 ? 0.9 : 0)
                         : float_value(r);
        });
      args.check(compile(k), args.cuts(3), for_op(op, t), std::string(kir::op_name(op)) + "." + name(t));
      ++checked;
    }
    // IsNan on every type; Not on bool.
    kir::Kernel isnan = make_kernel("isnan", kir::Kind::Pointwise, 1,
                                    {{t, Inner::Contiguous, false}, {DType::Bool, Inner::Contiguous, true}},
                                    [&](kir::Builder& b) { add_store(b, 1, b.unary(Op::IsNan, b.load(0))); });
    Args args(isnan, {77});
    args.check(compile(isnan), args.cuts(2), {}, "IsNan." + name(t));
  }
  kir::Kernel knot = make_kernel("not", kir::Kind::Pointwise, 1,
                                 {{DType::Bool, Inner::Contiguous, false}, {DType::Bool, Inner::Contiguous, true}},
                                 [&](kir::Builder& b) { add_store(b, 1, b.unary(Op::Not, b.load(0))); });
  Args nargs(knot, {70});
  nargs.check(compile(knot), nargs.cuts(2), {}, "Not");
  EXPECT_EQ(checked, 2 * 15 + 2 * 6);
}

// Every binary op and comparison on every type it is lowered for; b is
// broadcast along the inner dim, so vector x splat is covered too.
TEST(LlvmPointwise, BinaryOps) {
  const Op ops[] = {Op::Add, Op::Sub, Op::Mul, Op::Div, Op::Max, Op::Min, Op::Pow, Op::Lt,
                    Op::Le,  Op::Gt,  Op::Ge,  Op::Eq,  Op::Ne,  Op::And, Op::Or};
  int checked = 0;
  for (DType t : kAll) {
    for (Op op : ops) {
      const bool cmp = op >= Op::Lt && op <= Op::Ne;
      const bool logic = op == Op::And || op == Op::Or;
      if (logic != (t == DType::Bool) && !cmp && !(t == DType::Bool && (op == Op::Max || op == Op::Min))) continue;
      if ((op == Op::Div || op == Op::Pow) && !floating(t)) continue;
      const DType out = cmp ? DType::Bool : t;
      for (Inner bi : {Inner::Contiguous, Inner::Broadcast, Inner::Strided}) {
        kir::Kernel k = make_kernel("binary", kir::Kind::Pointwise, 2,
                                    {{t, Inner::Contiguous, false}, {t, bi, false}, {out, Inner::Contiguous, true}},
                                    [&](kir::Builder& b) {
                                      kir::ExprId x = b.load(0), y = b.load(1);
                                      add_store(b, 2, cmp ? b.compare(op, x, y) : b.binary(op, x, y));
                                    });
        Args args(k, {4, 37});
        if (op == Op::Pow) {
          args.fill(0, [](std::mt19937_64& r) {
            return r() % 8 ? std::uniform_real_distribution<double>(0, 5)(r) : float_value(r);
          });
          args.fill(1, [](std::mt19937_64& r) {
            return r() % 4 ? std::uniform_real_distribution<double>(-4, 4)(r) : double(int(r() % 7) - 3);
          });
        }
        if (cmp || op == Op::Max || op == Op::Min)  // equal pairs too
          args.fill(1, [t](std::mt19937_64& r) { return floating(t) ? std::round(float_value(r)) : int_value(r, t); });
        args.check(compile(k), args.cuts(3), for_op(op, t), std::string(kir::op_name(op)) + "." + name(t));
        ++checked;
      }
    }
  }
  EXPECT_EQ(checked, 3 * (2 * 13 + 2 * 11 + 10));
}

TEST(LlvmPointwise, Select) {
  for (DType t : kAll) {
    kir::Kernel k = make_kernel("select", kir::Kind::Pointwise, 2,
                                {{DType::Bool, Inner::Contiguous, false},
                                 {t, Inner::Contiguous, false},
                                 {t, Inner::Strided, false},
                                 {t, Inner::Contiguous, true}},
                                [&](kir::Builder& b) { add_store(b, 3, b.select(b.load(0), b.load(1), b.load(2))); });
    Args args(k, {5, 19});
    args.check(compile(k), args.cuts(2), {}, "Select." + name(t));
  }
}

// Every (from, to) pair. float->int truncates toward zero; ->bool is != 0
// (NaN is true); bool->number is 0/1.
TEST(LlvmPointwise, Casts) {
  int checked = 0;
  for (DType from : kAll) {
    for (DType to : kAll) {
      for (bool through_store : {false, true}) {
        // Cast as an expression, and as the implicit cast of a store to the operand's dtype.
        kir::Kernel k =
            make_kernel("cast", kir::Kind::Pointwise, 1,
                        {{from, Inner::Contiguous, false}, {to, Inner::Contiguous, true}}, [&](kir::Builder& b) {
                          kir::ExprId x = b.load(0);
                          add_store(b, 1, through_store ? x : b.cast(x, to));
                        });
        Args args(k, {131});
        if (floating(from))
          args.fill(0, [to](std::mt19937_64& r) -> double {
            static const double edge[] = {0.0, -0.0, 0.5, -0.5, 0.99, -0.99, 1.5, -2.5, 1e6 + 0.5, -1e6 - 0.5};
            if (to == DType::Bool && r() % 8 == 0) return r() % 2 ? NAN : INFINITY;
            if (r() % 4 == 0) return edge[r() % 10];
            return std::uniform_real_distribution<double>(-1e4, 1e4)(r);
          });
        args.check(compile(k), args.cuts(2), {}, "Cast " + name(from) + " -> " + name(to));
        ++checked;
      }
    }
  }
  EXPECT_EQ(checked, 50);
}

// Integer arithmetic wraps like two's complement; Abs/Neg of INT_MIN stay INT_MIN.
TEST(LlvmPointwise, IntegerWrapAndIdentities) {
  for (DType t : {DType::Int32, DType::Int64}) {
    kir::Kernel k = make_kernel("ints", kir::Kind::Pointwise, 1,
                                {{t, Inner::Contiguous, false},
                                 {t, Inner::Contiguous, false},
                                 {t, Inner::Contiguous, true},
                                 {t, Inner::Contiguous, true}},
                                [&](kir::Builder& b) {
                                  kir::ExprId x = b.load(0), y = b.load(1);
                                  add_store(b, 2, b.binary(Op::Mul, b.binary(Op::Add, x, y), b.unary(Op::Neg, x)));
                                  add_store(b, 3, b.unary(Op::Round, b.unary(Op::Floor, b.unary(Op::Abs, x))));
                                });
    Args args(k, {100});
    args.fill(0, [t](std::mt19937_64& r) {
      if (r() % 3 == 0) return t == DType::Int32 ? -2147483648.0 : -9223372036854775808.0;
      return int_value(r, t);
    });
    args.check(compile(k), args.cuts(2), {}, "ints." + name(t));
  }
}

// Ranks 1-4, operand layouts mixed: contiguous, broadcast along the inner
// dim, strided (stride 3), broadcast along outer dims, padded rows; outputs
// contiguous and strided; a param and a constant; pieces start mid-row.
TEST(LlvmPointwise, RanksAndLayouts) {
  std::mt19937_64 rng(42);
  int cases = 0;
  for (int rank = 1; rank <= 4; ++rank) {
    for (Inner out_inner : {Inner::Contiguous, Inner::Strided}) {
      kir::Kernel k = make_kernel("layouts", kir::Kind::Pointwise, rank,
                                  {{DType::Float32, Inner::Contiguous, false},
                                   {DType::Float32, Inner::Broadcast, false},
                                   {DType::Float32, Inner::Strided, false},
                                   {DType::Float64, Inner::Contiguous, false},
                                   {DType::Float32, out_inner, true},
                                   {DType::Bool, Inner::Contiguous, true}},
                                  [&](kir::Builder& b) {
                                    kir::ExprId a = b.load(0), x = b.load(1), c = b.load(2);
                                    kir::ExprId d = b.cast(b.load(3), DType::Float32);
                                    kir::ExprId p = b.param(0, DType::Float32);
                                    kir::ExprId v = b.binary(Op::Add, b.binary(Op::Mul, a, x), b.binary(Op::Mul, c, p));
                                    v = b.binary(Op::Sub, v, b.unary(Op::Tanh, d));
                                    v = b.binary(Op::Max, v, b.constant(-1.5, DType::Float32));
                                    add_store(b, 4, v);
                                    add_store(b, 5, b.compare(Op::Gt, a, x));
                                  });
      for (int trial = 0; trial < 12; ++trial) {
        std::vector<int64_t> sizes;
        for (int d = 0; d < rank; ++d)
          sizes.push_back(d == rank - 1 ? 1 + int64_t(rng() % 70) : 1 + int64_t(rng() % 4));
        Args args(k, sizes, rng());
        args.params = {0.75};
        // Outer broadcast for operand 1 (a bias-like vector over the rows) and operand 3's dim 0.
        std::vector<int64_t> s1(size_t(rank), 0), s3(static_cast<size_t>(rank));
        for (int d = rank - 2; d >= 0; --d)
          s1[size_t(d)] = d == rank - 2 ? 1 : s1[size_t(d + 1)] * sizes[size_t(d + 1)];
        if (rank > 1) s1[0] = 0;
        int64_t e = 1;
        for (int d = rank - 1; d >= 0; --d) {
          s3[size_t(d)] = e;
          e *= sizes[size_t(d)] + (d == rank - 1 ? 3 : 0);  // padded rows
        }
        if (rank > 1) s3[0] = 0;
        args.set_strides(1, s1);
        args.set_strides(3, s3);
        std::vector<int64_t> s2(static_cast<size_t>(rank));
        e = 3;
        for (int d = rank - 1; d >= 0; --d) {
          s2[size_t(d)] = e;
          e *= sizes[size_t(d)];
        }
        args.set_strides(2, s2);
        args.check(compile(k), args.cuts(1 + int(rng() % 4)), {2e-6, 1e-6}, "rank " + std::to_string(rank));
        ++cases;
      }
    }
  }
  EXPECT_EQ(cases, 96);
}

// One piece from mid-row to mid-row: nothing outside it is written.
TEST(LlvmPointwise, PartialRangeLeavesTheRestAlone) {
  kir::Kernel k = make_kernel("partial", kir::Kind::Pointwise, 3,
                              {{DType::Float32, Inner::Contiguous, false}, {DType::Float32, Inner::Contiguous, true}},
                              [&](kir::Builder& b) { add_store(b, 1, b.unary(Op::Exp, b.load(0))); });
  kir::KernelFn fn = compile(k);
  Args args(k, {2, 3, 41});
  args.check(fn, {17, 200}, for_op(Op::Exp, DType::Float32), "[17, 200)");
  args.check(fn, {5, 6}, for_op(Op::Exp, DType::Float32), "[5, 6)");
  args.check(fn, {40, 40}, {}, "[40, 40)");
}

// Invariant subexpressions (param * constant, exp of a broadcast value) are
// computed once per row segment; a kernel made only of them still writes
// every element.
TEST(LlvmPointwise, InvariantExpressions) {
  kir::Kernel k = make_kernel("invariant", kir::Kind::Pointwise, 2,
                              {{DType::Float32, Inner::Broadcast, false},
                               {DType::Float32, Inner::Contiguous, true},
                               {DType::Int32, Inner::Contiguous, true}},
                              [&](kir::Builder& b) {
                                kir::ExprId v =
                                    b.binary(Op::Mul, b.unary(Op::Exp, b.load(0)), b.param(1, DType::Float32));
                                add_store(b, 1, v);
                                add_store(b, 2, b.param(0, DType::Int32));
                              });
  Args args(k, {6, 23});
  args.params = {-7.9, 3.0};
  args.set_strides(0, {1, 0});
  args.check(compile(k), args.cuts(3), {1e-6, 0}, "invariant");
}

}  // namespace
}  // namespace kiln::jit::test

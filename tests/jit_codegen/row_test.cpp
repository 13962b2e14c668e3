// Row kernels compiled by the LLVM backend against the reference
// interpreter: softmax, a layer_norm with per-row stores, sums, NaN
// propagation of Max/Min, and row sizes around the vector width.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "jit/llvm_backend.h"
#include "tests/jit_codegen/kernel_args.h"

namespace kiln::jit::test {
namespace {

using kir::Inner;
using kir::Op;
using kir::ReduceOp;

kir::KernelFn compile(const kir::Kernel& k) { return LlvmBackend::get().compile(k).fn; }

// Row lengths below, at and around the vector width and the 4-accumulator block.
std::vector<int64_t> row_lengths() {
  const int64_t w = LlvmBackend::get().vector_width_f32();
  return {1, 2, 3, w - 1, w, w + 1, 4 * w - 1, 4 * w, 4 * w + 1, 4 * w + w + 3, 100, 1000, 1029};
}

double normal(std::mt19937_64& r) { return std::normal_distribution<double>(0, 3)(r); }

TEST(LlvmRow, Softmax) {
  for (DType t : {DType::Float32, DType::Float64}) {
    kir::Kernel k = make_kernel("softmax", kir::Kind::Row, 2,
                                {{t, Inner::Contiguous, false}, {t, Inner::Contiguous, true}}, [&](kir::Builder& b) {
                                  kir::ExprId x = b.load(0);
                                  kir::ExprId e = b.unary(Op::Exp, b.binary(Op::Sub, x, b.reduce(ReduceOp::Max, x)));
                                  add_store(b, 1, b.binary(Op::Div, e, b.reduce(ReduceOp::Sum, e)));
                                });
    kir::KernelFn fn = compile(k);
    for (int64_t n : row_lengths()) {
      Args args(k, {7, n}, uint64_t(n));
      args.fill(0, normal);
      args.check(fn, args.cuts(3), {t == DType::Float32 ? 1e-5 : 1e-12, 1e-7}, "softmax n=" + std::to_string(n));
    }
  }
}

// mean, var (a reduction that reads the mean), rstd; mean and rstd stored
// once per row (into [rows, 1] outputs), the normalized row scaled by
// weight and bias (broadcast over the rows).
kir::Kernel layer_norm(int rank) {
  const kir::Operand in{DType::Float32, Inner::Contiguous, false};
  return make_kernel(
      "layer_norm", kir::Kind::Row, rank,
      {in,
       in,
       in,
       {DType::Float32, Inner::Contiguous, true},
       {DType::Float32, Inner::Broadcast, true},
       {DType::Float32, Inner::Strided, true}},
      [&](kir::Builder& b) {
        kir::ExprId x = b.load(0), inv_n = b.param(0, DType::Float32);
        kir::ExprId mean = b.binary(Op::Mul, b.reduce(ReduceOp::Sum, x), inv_n);
        kir::ExprId d = b.binary(Op::Sub, x, mean);
        kir::ExprId var = b.binary(Op::Mul, b.reduce(ReduceOp::Sum, b.binary(Op::Mul, d, d)), inv_n);
        kir::ExprId rstd = b.unary(Op::Rsqrt, b.binary(Op::Add, var, b.constant(1e-5, DType::Float32)));
        add_store(b, 3, b.binary(Op::Add, b.binary(Op::Mul, b.binary(Op::Mul, d, rstd), b.load(1)), b.load(2)));
        add_store(b, 4, mean, true);
        add_store(b, 5, rstd, true);
      });
}

TEST(LlvmRow, LayerNorm) {
  for (int rank : {1, 2, 3}) {
    kir::Kernel k = layer_norm(rank);
    kir::KernelFn fn = compile(k);
    for (int64_t n : row_lengths()) {
      std::vector<int64_t> sizes(size_t(rank - 1), 3);
      sizes.push_back(n);
      Args args(k, sizes, uint64_t(n) * 7 + uint64_t(rank));
      args.params = {1.0 / double(n)};
      args.fill(0, [](std::mt19937_64& r) { return 5 + normal(r); });
      // weight and bias: one row, broadcast over the other dims
      std::vector<int64_t> wb(size_t(rank), 0);
      wb.back() = 1;
      args.set_strides(1, wb);
      args.set_strides(2, wb);
      // mean: [rows, 1] with a last-dim stride the per-row store must ignore.
      std::vector<int64_t> per_row(size_t(rank), 0);
      for (int d = rank - 2, e = 1; d >= 0; --d, e *= 3) per_row[size_t(d)] = e;
      args.set_strides(4, per_row);
      per_row.back() = 1000;  // rstd's (Strided) last stride: ignored by the per-row store
      if (rank > 1) args.set_strides(5, per_row);
      args.check(fn, args.cuts(2), {2e-5, 2e-5}, "layer_norm rank " + std::to_string(rank) + " n=" + std::to_string(n));
    }
  }
}

// Sums of every numeric type, stored per row, and x - sum per element; the
// input strided with outer dims transposed.
TEST(LlvmRow, SumPerRowAllTypes) {
  for (DType t : {DType::Int32, DType::Int64, DType::Float32, DType::Float64}) {
    for (Inner inner : {Inner::Contiguous, Inner::Strided}) {
      kir::Kernel k = make_kernel("sum", kir::Kind::Row, 3,
                                  {{t, inner, false}, {t, Inner::Broadcast, true}, {t, Inner::Contiguous, true}},
                                  [&](kir::Builder& b) {
                                    kir::ExprId x = b.load(0), s = b.reduce(ReduceOp::Sum, x);
                                    add_store(b, 1, s, true);
                                    add_store(b, 2, b.binary(Op::Sub, x, s));
                                  });
      kir::KernelFn fn = compile(k);
      for (int64_t n : {int64_t(5), int64_t(64), int64_t(131)}) {
        Args args(k, {2, 3, n}, uint64_t(n));
        if (t == DType::Float32 || t == DType::Float64) args.fill(0, normal);
        const int64_t s = inner == Inner::Strided ? 2 : 1;
        args.set_strides(0, {s * n, s * n * 2, s});  // dims 0 and 1 transposed in memory
        args.set_strides(1, {3, 1, 0});
        const double tol = t == DType::Float32 ? 1e-5 : t == DType::Float64 ? 1e-13 : 0;
        args.check(fn, args.cuts(3), {tol, tol * 10}, "sum." + std::string(dtype_name(t)) + " n=" + std::to_string(n));
      }
    }
  }
}

// Max and Min propagate NaN from any position: the 4-accumulator block, the
// single-vector loop, the scalar tail; rows without NaN reduce normally.
TEST(LlvmRow, MaxMinPropagateNan) {
  const int64_t w = LlvmBackend::get().vector_width_f32();
  for (DType t : {DType::Float32, DType::Float64}) {
    const int64_t lanes = t == DType::Float32 ? w : w / 2;
    const int64_t n = 4 * lanes + lanes + 3;
    const std::vector<int64_t> nan_at = {-1,        0,    1, lanes + 2, 4 * lanes - 1, 4 * lanes, 4 * lanes + 1,
                                         5 * lanes, n - 1};
    kir::Kernel k =
        make_kernel("maxmin", kir::Kind::Row, 2,
                    {{t, Inner::Contiguous, false}, {t, Inner::Broadcast, true}, {t, Inner::Broadcast, true}},
                    [&](kir::Builder& b) {
                      kir::ExprId x = b.load(0);
                      add_store(b, 1, b.reduce(ReduceOp::Max, x), true);
                      add_store(b, 2, b.reduce(ReduceOp::Min, x), true);
                    });
    Args args(k, {int64_t(nan_at.size()), n});
    int64_t i = 0;
    args.fill(0, [&](std::mt19937_64& r) -> double {
      const int64_t row = i / n, col = i % n;
      ++i;
      return col == nan_at[size_t(row)] ? NAN : std::uniform_real_distribution<double>(-1e3, 1e3)(r);
    });
    args.check(compile(k), args.cuts(2), {}, "max/min with NaN, " + std::string(dtype_name(t)));
  }
}

// Integer and bool Max/Min (any/all), and a row of -inf.
TEST(LlvmRow, MaxMinIntegersAndBools) {
  for (DType t : {DType::Bool, DType::Int32, DType::Int64, DType::Float32}) {
    kir::Kernel k =
        make_kernel("maxmin", kir::Kind::Row, 2,
                    {{t, Inner::Contiguous, false}, {t, Inner::Broadcast, true}, {t, Inner::Broadcast, true}},
                    [&](kir::Builder& b) {
                      kir::ExprId x = b.load(0);
                      add_store(b, 1, b.reduce(ReduceOp::Max, x), true);
                      add_store(b, 2, b.reduce(ReduceOp::Min, x), true);
                    });
    for (int64_t n : row_lengths()) {
      Args args(k, {6, n}, uint64_t(n));
      if (t == DType::Bool)  // mostly-true and mostly-false rows
        args.fill(0, [&](std::mt19937_64& r) { return double(r() % (n + 1) == 0); });
      if (t == DType::Float32)
        args.fill(0, [](std::mt19937_64& r) -> double {
          return r() % 2 ? -INFINITY : std::uniform_real_distribution<double>(-1, 1)(r);
        });
      args.check(compile(k), args.cuts(2), {}, "max/min " + std::string(dtype_name(t)) + " n=" + std::to_string(n));
    }
  }
}

// A reduction over an expression of broadcast and strided operands and a
// param (log-sum-exp with a per-row offset), rows processed in pieces.
TEST(LlvmRow, ExpressionsOfMixedOperands) {
  kir::Kernel k =
      make_kernel("lse", kir::Kind::Row, 2,
                  {{DType::Float32, Inner::Strided, false},
                   {DType::Float32, Inner::Broadcast, false},
                   {DType::Float32, Inner::Contiguous, true}},
                  [&](kir::Builder& b) {
                    kir::ExprId x = b.binary(Op::Add, b.load(0), b.load(1));
                    kir::ExprId m = b.reduce(ReduceOp::Max, x);
                    kir::ExprId s = b.reduce(ReduceOp::Sum, b.unary(Op::Exp, b.binary(Op::Sub, x, m)));
                    kir::ExprId lse = b.binary(Op::Add, b.unary(Op::Log, s), m);
                    add_store(b, 2, b.binary(Op::Mul, b.binary(Op::Sub, x, lse), b.param(0, DType::Float32)));
                  });
  kir::KernelFn fn = compile(k);
  for (int64_t n : row_lengths()) {
    Args args(k, {9, n}, uint64_t(n));
    args.params = {-1.0};
    args.fill(0, normal);
    args.set_strides(1, {1, 0});
    args.check(fn, args.cuts(4), {2e-5, 1e-5}, "lse n=" + std::to_string(n));
  }
}

// Expressions the row buffer holds (computed in a reduction's loop, read
// back by the store loop): a float64 one and a float32 one, sections of
// both sizes, one used by a later reduction too, and a Bool built on a math
// call, which stays recomputed (Bool vectors would be stored bit-packed).
TEST(LlvmRow, RowBufferOfMixedTypes) {
  kir::Kernel k = make_kernel(
      "row_buffer", kir::Kind::Row, 2,
      {{DType::Float32, Inner::Contiguous, false},
       {DType::Float32, Inner::Contiguous, true},
       {DType::Float64, Inner::Contiguous, true},
       {DType::Bool, Inner::Contiguous, true}},
      [&](kir::Builder& b) {
        kir::ExprId x = b.load(0);
        kir::ExprId e32 = b.unary(Op::Exp, b.binary(Op::Sub, x, b.reduce(ReduceOp::Max, x)));
        kir::ExprId s32 = b.reduce(ReduceOp::Sum, e32);
        kir::ExprId e64 = b.unary(Op::Tanh, b.cast(x, DType::Float64));
        kir::ExprId s64 = b.reduce(ReduceOp::Sum, b.binary(Op::Mul, e64, b.cast(e32, DType::Float64)));
        add_store(b, 1, b.binary(Op::Div, e32, s32));
        add_store(b, 2, b.binary(Op::Sub, e64, s64));
        add_store(b, 3, b.compare(Op::Gt, e32, b.constant(0.5, DType::Float32)));
      });
  EXPECT_NE(LlvmBackend::get().compile(k, {.keep_text = true}).llvm_ir.find("kiln_row_scratch"), std::string::npos);
  kir::KernelFn fn = compile(k);
  for (int64_t n : row_lengths()) {
    Args args(k, {5, n}, uint64_t(n));
    args.fill(0, normal);
    args.check(fn, args.cuts(2), {1e-5, 1e-7}, "row buffer n=" + std::to_string(n));
  }
}

}  // namespace
}  // namespace kiln::jit::test

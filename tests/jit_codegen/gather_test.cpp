// Index, Gather and scattering stores compiled by the LLVM backend against
// the reference interpreter: the domain index in every dim (segments that
// start mid-row), gathers whose offset is fixed for a row (an embedding
// lookup: a moved vector load) and ones that vary per element (a masked
// gather), from contiguous, strided and broadcast operands of every memory
// type, inside Row kernels' reductions and per-row stores; scatter-adds whose
// targets meet, across rows and inside one vector.
#include <gtest/gtest.h>

#include <string>

#include "jit/llvm_backend.h"
#include "tests/jit_codegen/kernel_args.h"

namespace kiln::jit::test {
namespace {

using kir::ExprId;
using kir::Inner;
using kir::Op;

kir::KernelFn compile(const kir::Kernel& k) { return LlvmBackend::get().compile(k).fn; }
std::string name(DType t) { return std::string(dtype_name(t)); }

// Small integers of any memory type, so gathered values compare exactly.
double small(std::mt19937_64& r) { return double(int(r() % 19) - 9); }

TEST(LlvmGather, IndexOfEveryDim) {
  kir::Kernel k = make_kernel("index", kir::Kind::Pointwise, 3,
                              {{DType::Int64, Inner::Contiguous, true}, {DType::Float32, Inner::Strided, true}},
                              [](kir::Builder& b) {
                                const ExprId i0 = b.index(0), i1 = b.index(1), i2 = b.index(2);
                                const ExprId hi = b.binary(Op::Mul, i0, b.constant(10000, DType::Int64));
                                const ExprId mid = b.binary(Op::Mul, i1, b.constant(100, DType::Int64));
                                const ExprId v = b.binary(Op::Add, b.binary(Op::Add, hi, mid), i2);
                                add_store(b, 0, v);
                                add_store(b, 1, b.cast(v, DType::Float32));
                              });
  Args args(k, {3, 5, 37});
  args.check(compile(k), args.cuts(5), {}, "index");
}

// out[r, j] = table[ids[r], j]: the offset (ids[r] - r) * D is fixed along a
// row, so each row is a plain (vector) load from a moved segment.
TEST(LlvmGather, RowOffsetsMoveTheSegment) {
  constexpr int64_t V = 7, D = 45;
  for (DType t : {DType::Float32, DType::Float64, DType::Int32, DType::Bool}) {
    kir::Kernel k = make_kernel(
        "embedding", kir::Kind::Pointwise, 2,
        {{DType::Int64, Inner::Broadcast, false}, {t, Inner::Contiguous, false}, {t, Inner::Contiguous, true}},
        [&](kir::Builder& b) {
          const ExprId row = b.binary(Op::Sub, b.load(0), b.index(0));
          add_store(b, 2, b.gather(1, b.binary(Op::Mul, row, b.constant(D, DType::Int64))));
        });
    Args args(k, {V, D});
    args.fill(0, [](std::mt19937_64& r) { return double(r() % V); });
    args.fill(1, small);
    args.check(compile(k), args.cuts(3), {}, "embedding of " + name(t));
  }
}

// out[r, j] = x[r, perm[r, j]]: a different element per lane, from a
// contiguous, a strided and a broadcast-inner operand.
TEST(LlvmGather, ElementOffsetsGatherEachLane) {
  constexpr int64_t R = 4, C = 33;
  for (DType t : {DType::Float32, DType::Float64, DType::Int64, DType::Bool}) {
    for (Inner inner : {Inner::Contiguous, Inner::Strided, Inner::Broadcast}) {
      kir::Kernel k = make_kernel(
          "permute", kir::Kind::Pointwise, 2,
          {{DType::Int32, Inner::Contiguous, false}, {t, inner, false}, {t, Inner::Contiguous, true}},
          [&](kir::Builder& b) {
            // The operand's own walk of the row is undone, then perm's element
            // taken.
            const ExprId perm = b.cast(b.load(0), DType::Int64);
            const int64_t step = inner == Inner::Strided ? 2 : inner == Inner::Contiguous;
            const ExprId walked = b.binary(Op::Mul, b.index(1), b.constant(step, DType::Int64));
            const ExprId scaled = b.binary(Op::Mul, perm, b.constant(inner == Inner::Strided ? 2 : 1, DType::Int64));
            add_store(b, 2, b.gather(1, b.binary(Op::Sub, scaled, walked)));
          });
      Args args(k, {R, C});
      if (inner == Inner::Broadcast) args.set_strides(1, {C, 0}, R * C);
      args.fill(0, [](std::mt19937_64& r) { return double(r() % C); });
      args.fill(1, small);
      args.check(compile(k), args.cuts(4), {}, "permute " + name(t) + " inner " + std::to_string(int(inner)));
    }
  }
}

// A Row kernel: the sum over a row of gathered elements, a per-row store of
// a gathered element and of the row's index (the last dim's index is 0 there).
TEST(LlvmGather, InsideRowKernels) {
  constexpr int64_t R = 5, C = 29;
  kir::Kernel k = make_kernel("row_gather", kir::Kind::Row, 2,
                              {{DType::Int64, Inner::Contiguous, false},
                               {DType::Float32, Inner::Contiguous, false},
                               {DType::Float32, Inner::Broadcast, true},
                               {DType::Int64, Inner::Broadcast, true},
                               {DType::Float32, Inner::Contiguous, true}},
                              [](kir::Builder& b) {
                                const ExprId off = b.binary(Op::Sub, b.load(0), b.index(1));
                                const ExprId x = b.gather(1, off);
                                const ExprId s = b.reduce(kir::ReduceOp::Sum, x);
                                const ExprId third = b.gather(1, b.constant(3, DType::Int64));
                                add_store(b, 2, b.binary(Op::Add, s, third), true);
                                const ExprId id = b.binary(Op::Mul, b.index(0), b.constant(1000, DType::Int64));
                                add_store(b, 3, b.binary(Op::Add, id, b.index(1)), true);
                                add_store(b, 4, b.binary(Op::Sub, x, s));
                              });
  Args args(k, {R, C});
  args.fill(0, [](std::mt19937_64& r) { return double(r() % C); });
  args.fill(1, small);
  args.check(compile(k), args.cuts(3), {}, "row gather");
}

// table[ids[r], j] += x[r, j]: rows meet at one table row; the kernel runs
// serially (as the launcher runs it), so sums are exact in index order.
TEST(LlvmScatter, RowsAddIntoTheirTargetRows) {
  constexpr int64_t R = 9, D = 21, V = 4;
  for (DType t : {DType::Float32, DType::Float64, DType::Int32, DType::Int64}) {
    kir::Kernel k = make_kernel("embedding_backward", kir::Kind::Pointwise, 2,
                                {{DType::Int64, Inner::Broadcast, false},
                                 {t, Inner::Contiguous, false},
                                 {t, Inner::Contiguous, true}},
                                [&](kir::Builder& b) {
                                  // The table's own walk is (r, j) with strides (0, 1): add ids[r] * D.
                                  const ExprId off = b.binary(Op::Mul, b.load(0), b.constant(D, DType::Int64));
                                  b.kernel().stores.push_back(
                                      {.operand = 2, .value = b.load(1), .offset = off, .accumulate = true});
                                });
    Args args(k, {R, D});
    args.set_strides(2, {0, 1}, V * D);
    args.fill(0, [](std::mt19937_64& r) { return double(r() % V); });
    args.fill(1, small);
    args.fill(2, small);
    args.check(compile(k), args.cuts(3), {}, "embedding backward of " + name(t));
  }
}

// Offsets that differ per lane and meet inside one vector: a histogram
// (out[perm[r, j]] += 1) into a broadcast (stride 0) output; and a plain
// scatter (no add), where the last write in index order wins.
TEST(LlvmScatter, LanesThatMeetAddInIndexOrder) {
  constexpr int64_t R = 3, C = 37, B = 5;
  for (bool add : {true, false}) {
    kir::Kernel k = make_kernel("histogram", kir::Kind::Pointwise, 2,
                                {{DType::Int64, Inner::Contiguous, false},
                                 {DType::Float32, Inner::Contiguous, false},
                                 {DType::Float32, Inner::Broadcast, true}},
                                [&](kir::Builder& b) {
                                  const ExprId v = add ? b.constant(1, DType::Float32) : b.load(1);
                                  b.kernel().stores.push_back(
                                      {.operand = 2, .value = v, .offset = b.load(0), .accumulate = add});
                                });
    Args args(k, {R, C});
    args.set_strides(2, {0, 0}, B);
    args.fill(0, [](std::mt19937_64& r) { return double(r() % B); });
    args.fill(1, small);
    args.check(compile(k), args.cuts(4), {}, add ? "histogram" : "last write wins");
  }
}

}  // namespace
}  // namespace kiln::jit::test

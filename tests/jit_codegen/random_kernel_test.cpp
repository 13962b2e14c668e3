// Random kernels (pointwise and row, random expression DAGs over several
// types, random operand layouts and ranges) compiled and compared with the
// reference interpreter. Only ops whose IEEE results do not depend on
// evaluation order are drawn, so results must match exactly: Sum reduces
// integer-valued inputs only, and no float->int cast sees NaN or inf.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "jit/llvm_backend.h"
#include "tests/jit_codegen/kernel_args.h"

namespace kiln::jit::test {
namespace {

using kir::ExprId;
using kir::Inner;
using kir::Op;

bool floating(DType t) { return t == DType::Float32 || t == DType::Float64; }

class RandomKernel {
 public:
  explicit RandomKernel(uint64_t seed) : rng_(seed) {}

  kir::Kernel make(bool row) {
    const DType types[] = {DType::Float32, DType::Float32, DType::Float64, DType::Int32, DType::Bool};
    const int rank = rank_ = 1 + int(rng_() % 3);
    std::vector<kir::Operand> ops;
    const int inputs = 1 + int(rng_() % 4);
    for (int i = 0; i < inputs; ++i) ops.push_back({types[rng_() % 5], Inner(rng_() % 3), false});
    const int outputs = 1 + int(rng_() % 3);
    for (int i = 0; i < outputs; ++i)
      ops.push_back({types[rng_() % 5], rng_() % 3 == 0 ? Inner::Strided : Inner::Contiguous, true});
    return make_kernel("random", row ? kir::Kind::Row : kir::Kind::Pointwise, rank, ops, [&](kir::Builder& b) {
      for (int i = 0; i < inputs; ++i) pool_.push_back(b.load(i));
      pool_.push_back(b.param(0, DType::Float32));
      pool_.push_back(b.constant(double(int(rng_() % 7)) - 2.5, DType::Float32));
      if (row) {
        // Sum over a raw input (integer-valued: exact in any order), Max/Min over anything.
        for (int i = 0; i < inputs; ++i) {
          if (rng_() % 2 || ops[size_t(i)].dtype == DType::Bool) continue;
          pool_.push_back(b.reduce(kir::ReduceOp::Sum, pool_[size_t(i)]));
          break;
        }
      }
      const int n = 3 + int(rng_() % 16);
      for (int i = 0; i < n; ++i) {
        pool_.push_back(random_op(b, row));
        if (row && rng_() % 6 == 0)
          pool_.push_back(b.reduce(rng_() % 2 ? kir::ReduceOp::Max : kir::ReduceOp::Min, pool_.back()));
      }
      for (int o = 0; o < outputs; ++o) {
        const DType t = ops[size_t(inputs + o)].dtype;
        ExprId v = pick();
        if (!floating(t) && floating(b.type(v)))
          v = b.compare(Op::Gt, v, b.constant(0.25, b.type(v)));  // no NaN -> int
        add_store(b, inputs + o, v, row && rng_() % 3 == 0 && o > 0);
      }
    });
  }

 private:
  ExprId pick() { return pool_[pool_.size() - 1 - size_t(rng_() % std::min<uint64_t>(pool_.size(), 6))]; }
  ExprId pick_any() { return pool_[size_t(rng_() % pool_.size())]; }

  ExprId as(kir::Builder& b, ExprId e, DType t) {
    if (b.type(e) == t) return e;
    if (!floating(t) && floating(b.type(e)) && t != DType::Bool) e = b.cast(e, DType::Bool);  // keep NaN out of ints
    return b.cast(e, t);
  }

  ExprId random_op(kir::Builder& b, bool row) {
    const ExprId a = rng_() % 2 ? pick() : pick_any(), c = pick_any();
    const DType ta = b.type(a);
    const DType num = ta == DType::Bool ? DType::Float32 : ta;
    switch (rng_() % 13) {
      case 0: {
        const Op ops[] = {Op::Add, Op::Sub, Op::Mul, Op::Max, Op::Min};
        return b.binary(ops[rng_() % 5], as(b, a, num), as(b, c, num));
      }
      case 1:
        if (row) return b.binary(Op::Mul, as(b, a, num), as(b, c, num));
        return b.binary(Op::Div, as(b, a, DType::Float64), as(b, c, DType::Float64));
      case 2: {
        const Op ops[] = {Op::Neg, Op::Abs, Op::Floor, Op::Ceil, Op::Trunc, Op::Round};
        return b.unary(ops[rng_() % 6], as(b, a, num));
      }
      case 3: return b.unary(Op::Sqrt, as(b, b.unary(Op::Abs, as(b, a, DType::Float32)), DType::Float32));
      case 4: {
        const Op ops[] = {Op::Lt, Op::Le, Op::Gt, Op::Ge, Op::Eq, Op::Ne};
        return b.compare(ops[rng_() % 6], as(b, a, num), as(b, c, num));
      }
      case 5: return b.select(as(b, pick_any(), DType::Bool), as(b, a, num), as(b, c, num));
      case 6: return b.binary(rng_() % 2 ? Op::And : Op::Or, as(b, a, DType::Bool), as(b, c, DType::Bool));
      case 7: return b.unary(Op::Not, as(b, a, DType::Bool));
      case 8: return b.unary(Op::IsNan, a);
      case 9: return as(b, a, rng_() % 2 ? DType::Float64 : DType::Float32);
      case 10: return as(b, a, DType::Int32);
      case 11: return b.index(int32_t(rng_() % uint64_t(rank_)));
      default: return b.binary(Op::Mul, as(b, a, DType::Float32), b.param(0, DType::Float32));
    }
  }

  std::mt19937_64 rng_;
  std::vector<ExprId> pool_;
  int rank_ = 1;
};

// KILN_RANDOM_KERNELS=N runs N kernels of each kind (default 150).
int count() {
  const char* env = std::getenv("KILN_RANDOM_KERNELS");
  return env ? std::atoi(env) : 150;
}

void run(bool row) {
  std::mt19937_64 rng(row ? 2024 : 7);
  const int n = count();
  for (int i = 0; i < n; ++i) {
    const uint64_t seed = rng();
    kir::Kernel k = RandomKernel(seed).make(row);
    k.streams = i % 2;  // its non-temporal loop runs under KILN_STREAMING_STORES=1 (the stream. variant)
    kir::KernelFn fn = LlvmBackend::get().compile(k).fn;
    std::vector<int64_t> sizes;
    for (int d = 0; d < k.rank; ++d)
      sizes.push_back(d == k.rank - 1 ? 1 + int64_t(rng() % 80) : 1 + int64_t(rng() % 4));
    Args args(k, sizes, seed);
    // Small integers and halves: exact sums, few roundings.
    for (size_t o = 0; o < k.operands.size(); ++o)
      if (!k.operands[o].output && floating(k.operands[o].dtype))
        args.fill(int(o), [](std::mt19937_64& r) -> double {
          if (r() % 20 == 0) return r() % 2 ? NAN : -INFINITY;
          return double(int(r() % 17) - 8) * (r() % 3 ? 1.0 : 0.5);
        });
    args.params = {double(int(rng() % 9)) - 4.5};
    args.check(fn, args.cuts(1 + int(rng() % 4)), {}, "random kernel seed " + std::to_string(seed));
    if (::testing::Test::HasFailure()) break;  // one kernel's report is enough
  }
}

TEST(LlvmRandomKernels, Pointwise) { run(false); }
TEST(LlvmRandomKernels, Row) { run(true); }

}  // namespace
}  // namespace kiln::jit::test

// What an op's lowering (OpDef::lower) sees: one node of a fused group, and
// the kernel being built. The fusion pass (jit/fusion.cpp) implements it.
//
// A lowering reads its node's arguments as expressions at the current index
// of the group's domain and defines each output as an expression. Pointwise
// ops just compute; reductions over the domain's last dim (softmax, sum over
// dim -1, layer_norm) add Row reductions and define per-row outputs.
#pragma once

#include <optional>
#include <span>

#include "core/kernel_ir.h"
#include "core/op_table.h"

namespace kiln::kir {

class Lowering {
 public:
  Lowering(Builder& b, const OpDef& op, Args args, std::span<const Tensor> outs)
      : b(b), op(op), args(args), outs(outs) {}
  virtual ~Lowering() = default;

  Builder& b;
  const OpDef& op;               // the functional op (in-place ops lower as theirs)
  Args args;                     // the node's bound arguments (this run's example values)
  std::span<const Tensor> outs;  // its outputs (dtypes, sizes)

  // Tensor argument `arg` at the current index, cast to `as`; -1 when the
  // argument is None or an undefined tensor. `trailing` size-1 dims are
  // appended to it before it broadcasts to the domain (embedding's indices
  // [B, T] against its [B, T, D] output).
  virtual ExprId tensor(int arg, DType as, int trailing = 0) = 0;
  // Tensor argument `arg` with its dim `dim` read at `at` (an Int64
  // expression) and its other dims broadcast to the domain as tensor()'s
  // are: `dim` removed, or kept as a size-1 dim when `keep_dim`. The index
  // must be in range: the op's check (CheckFn) has bounded it before any
  // kernel runs, and entries it skips (ignore_index) must be mapped to 0.
  virtual ExprId gather(int arg, int64_t dim, ExprId at, DType as, bool keep_dim = false) = 0;
  // The current index of the domain's dim `dim` (negative: from the end), an Int64.
  virtual ExprId index(int64_t dim) = 0;

  // Scatters. domain_of makes the domain tensor argument `arg`'s shape (call
  // it first): for an op that walks an input rather than its output.
  virtual bool domain_of(int arg) = 0;
  // Output `out` as a scatter-add target: it starts as zeros and, at every
  // index of the domain, `value` is added to its element at index `at`
  // (Int64, in range as for gather) along its dim `dim`, its other dims
  // mapping onto the domain as tensor()'s do. The node is then a kernel of
  // its own, which the CPU runs serially in index order (the eager kernels'
  // order, so the same sums) and a GPU with atomic adds.
  virtual void scatter_add_out(int out, int64_t dim, ExprId at, ExprId value) = 0;
  // Scalar argument `arg` as a kernel parameter of type `as`: a Python number
  // may change between runs without recompiling.
  virtual ExprId scalar(int arg, DType as) = 0;
  // Defines output i (cast to its dtype by the fusion pass). `per_row`: the
  // output holds one value per row of a Row kernel (sum over the last dim).
  virtual void set_out(int i, ExprId value, bool per_row = false) = 0;

  // Row kernels: whether this node may reduce over its input's dim `dim`
  // (normalized or negative): true when that dim is the domain's last and
  // the kernel is a Row kernel (the pass then makes the group one).
  virtual bool can_reduce(int arg, int64_t dim) = 0;
  // The reduced dim's length as a value of type `as` (a kernel parameter:
  // one kernel serves every length).
  virtual ExprId row_length(DType as) = 0;

  // The value of argument `arg` (a Python number: a Scalar, or a wrapped
  // 0-dim tensor) in this run, for a lowering that picks its formula by it
  // (x ** 2 as x * x). The kernel is then valid only for that value: the
  // launcher checks it on every run and runs the nodes eagerly when it
  // changed. nullopt when the argument is not such a number.
  virtual std::optional<double> specialize(int arg) = 0;
  // The size of tensor argument `arg`'s dim `dim` in this run, for a lowering
  // that only holds at that size (a product with one term per element is a
  // broadcast multiply); checked at every launch like specialize. nullopt
  // when the argument is not a tensor with that dim.
  virtual std::optional<int64_t> specialize_size(int arg, int64_t dim) = 0;
};

// The types the code generators compute in.
inline bool lowerable_type(DType d) {
  return d == DType::Float32 || d == DType::Float64 || d == DType::Int64 || d == DType::Int32 || d == DType::Bool;
}
inline bool lowerable_float(DType d) { return d == DType::Float32 || d == DType::Float64; }

}  // namespace kiln::kir

// Op dispatch: the one path every tensor op takes. It allocates outputs from
// the op's shape and dtype functions, runs the eager kernel, records the
// autograd node, bumps version counters for in-place writes, and tells the
// installed observer (the tracer) what ran.
#pragma once

#include <span>
#include <string_view>
#include <vector>

#include "core/op_table.h"

namespace kiln {

// `args` must already be bound to op.schema (see bind_args).
std::vector<Tensor> dispatch(const OpDef& op, std::vector<Value> args);

namespace lazy {
struct PendingOp;
}
// Runs the kernel dispatch deferred for `p` (core/lazy.h): writes its outputs
// (in-place: self), and records its Kernel event when a trace session records.
// Views did their work when dispatched.
void run_deferred(const lazy::PendingOp& p);

// The overload of `name` the arguments select (PyTorch's rules: the first
// that binds, except that a Python number goes to a Scalar parameter where an
// overload has one), with its bound arguments. `name` may name an overload.
struct BoundOp {
  const OpDef* op;
  std::vector<Value> args;
};
BoundOp bind_op(std::string_view name, std::span<const Value> positional, const Kwargs& kwargs = {});

// Binds then dispatches; what the VM calls for torch.xxx(...).
std::vector<Tensor> call_op(std::string_view name, std::span<const Value> positional,
                            const Kwargs& kwargs = {});

// The JIT's hook into eager execution: when installed, on_op runs after every
// op that dispatch executed (including those autograd's backward runs).
class DispatchObserver {
 public:
  virtual ~DispatchObserver() = default;
  virtual void on_op(const OpDef& op, Args args, std::span<const Tensor> outs) = 0;
};
void set_dispatch_observer(DispatchObserver* obs);
DispatchObserver* dispatch_observer();

}  // namespace kiln

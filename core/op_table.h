// The op table: the single source of truth for every tensor operation.
//
// Each OpDef is one entry: PyTorch's name and schema, a kind, a shape
// function, a dtype function, the eager CPU kernel and the derivative
// formula (written with other ops of this table, like PyTorch's
// derivatives.yaml). Eager dispatch, autograd, and later the tracer, fusion
// and code generators all read these entries; adding an op is adding one
// entry in the file of its category (core/ops/*.cpp) plus its tests.
#pragma once

#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "core/schema.h"
#include "core/value.h"

namespace kiln {

namespace kir {
class Lowering;  // core/kernel_ir.h
}

#define KILN_OP_KINDS(_)                                                  \
  _(Pointwise)  /* elementwise with broadcasting; fusible */              \
  _(Reduction)  /* reduces dims (sum, softmax: reduction + pointwise) */  \
  _(View)       /* output aliases input storage, kernel sets strides */   \
  _(Shape)      /* data movement that copies: cat, stack, tril, index */  \
  _(Extern)     /* library call: matmul via BLAS */                       \
  _(Creation)   /* no tensor inputs: zeros, arange */                     \
  _(Random)     /* draws from the generator */                            \
  _(Composite)  /* defined by calling other ops; autograd flows through */

enum class OpKind : uint8_t {
#define KILN_KIND_ENUM(k) k,
  KILN_OP_KINDS(KILN_KIND_ENUM)
#undef KILN_KIND_ENUM
};
std::string_view op_kind_name(OpKind k);

// Bound arguments in schema order (kwargs placed, defaults filled).
using Args = std::span<const Value>;

struct GradCtx;
using ShapeFn = std::vector<Shape> (*)(const Args&);
using DTypeFn = std::vector<DType> (*)(const Args&);
// Non-view ops: outs arrive allocated (contiguous, or self for in-place);
// View ops: outs arrive empty and the kernel makes them views of an input.
using KernelFn = void (*)(const Args&, std::vector<Tensor>& outs);
// Composite ops: the result, computed by dispatching other ops.
using CompositeFn = std::vector<Tensor> (*)(const Args&);
// Returns one gradient per tensor input (lists flattened), in argument order;
// an undefined Tensor where no gradient flows.
using GradFn = std::vector<Tensor> (*)(const GradCtx&);
// Raises the errors that depend on input values (an index out of range, a
// class target out of bounds), reading only the inputs it must. Dispatch
// calls it before the kernel; with the kernel deferred (core/lazy.h), it keeps
// those errors at the line that called the op.
using CheckFn = void (*)(const Args&);
// Lowers one use of the op into kernel IR for the fused code generators
// (core/kernel_ir.h): false when this use cannot be (a dtype, dim or mode the
// generators do not handle), and the node runs its eager kernel instead.
using LowerFn = bool (*)(kir::Lowering&);
// Where an op's outputs live when not beside its inputs (device transfers);
// its kernel then runs on the host and moves the data itself.
using DeviceFn = Device (*)(const Args&);

// Which tensors the derivative reads, so autograd saves only those and checks
// only their versions (an in-place change of anything else is legal).
constexpr uint32_t save_in(int i) { return 1u << i; }
constexpr uint32_t save_out(int i) { return 1u << (16 + i); }

struct OpDef {
  const char* schema_text = nullptr;  // "add(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor"
  OpKind kind = OpKind::Pointwise;
  ShapeFn shape = nullptr;
  DTypeFn dtype = nullptr;
  KernelFn kernel = nullptr;
  GradFn grad = nullptr;  // nullptr: outputs never require grad
  uint32_t saves = 0;
  CompositeFn composite = nullptr;  // only for OpKind::Composite
  // A composite's autograd node name where PyTorch's is not its last op's
  // ("RollBackward0" for a roll made of slices and cat): grad_fn prints it.
  const char* grad_node = nullptr;
  CheckFn check = nullptr;          // value checks of indices/targets (see CheckFn)
  LowerFn lower = nullptr;          // fusion's definition (see LowerFn); in-place ops use functional's
  DeviceFn device = nullptr;        // device transfers only (see DeviceFn)
  // In-place variants ("add_") name their functional op ("add"); they share
  // its kernel, shape rules and derivative, writing into self.
  const char* inplace_of = nullptr;

  // Filled when the table is built.
  Schema schema;
  const OpDef* functional = nullptr;  // for in-place ops
  bool requires_grad_arg = false;     // the schema ends with "bool requires_grad" (factories)
  const std::string& name() const { return schema.name; }
  bool is_inplace() const { return functional != nullptr; }
};

class OpTable {
 public:
  void add(OpDef def);
  const OpDef* find(std::string_view name) const;
  const OpDef& get(std::string_view name) const;  // throws if missing
  const std::vector<const OpDef*>& all() const { return order_; }
  // Every overload of a base name ("max" → max, max.dim, max.other), in
  // registration order; call_op binds the first that accepts the arguments.
  std::span<const OpDef* const> overloads(std::string_view base) const;
  void finish();  // links in-place ops to their functional forms

 private:
  std::vector<std::unique_ptr<OpDef>> defs_;
  std::vector<const OpDef*> order_;
  std::unordered_map<std::string_view, const OpDef*> by_name_;
  std::unordered_map<std::string_view, std::vector<const OpDef*>> overloads_;
};

const OpTable& op_table();

// Category registration (one per core/ops/*.cpp file).
void register_pointwise_ops(OpTable&);
void register_pointwise_math_ops(OpTable&);  // after pointwise: it names their ops
void register_reduction_ops(OpTable&);
void register_shape_ops(OpTable&);
void register_index_ops(OpTable&);
void register_creation_ops(OpTable&);
void register_random_ops(OpTable&);
void register_blas_ops(OpTable&);
void register_nn_ops(OpTable&);

// What a derivative formula sees.
struct GradCtx {
  const OpDef* op;
  Args args;                    // bound inputs; unsaved tensors are undefined
  std::span<const Tensor> outs;  // saved outputs (undefined unless saved)
  std::span<const Tensor> grads; // gradient of each output (zeros if none flowed)
  const std::vector<bool>* needs; // per tensor input: whether a gradient is wanted
  std::span<const Shape> in_sizes; // per tensor input: its forward shape (always kept)
  const std::vector<bool>* no_grad_flowed = nullptr;  // per output: its grad is a materialised zero
  const Tensor& in(int i) const { return args[i].tensor(); }
  const Tensor& grad(int i = 0) const { return grads[i]; }
  const Tensor& out(int i = 0) const { return outs[i]; }
  bool need(int tensor_input) const { return (*needs)[size_t(tensor_input)]; }
  // Whether a gradient reached output i (else grad(i) is zeros the engine made).
  bool flowed(int i) const {
    return !no_grad_flowed || size_t(i) >= no_grad_flowed->size() || !(*no_grad_flowed)[size_t(i)];
  }
};

}  // namespace kiln

// Reverse-mode autograd over the op table. Dispatch records one OpNode per
// differentiable op; backward() walks the graph in dependency order, runs each
// op's derivative formula (itself made of dispatched ops) and accumulates
// into leaves' .grad.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "core/op_table.h"

namespace kiln {

// torch.is_grad_enabled / torch.no_grad. Thread-local like PyTorch's.
struct GradMode {
  static bool enabled();
  static void set(bool on);
};
class NoGradGuard {
 public:
  NoGradGuard() : prev_(GradMode::enabled()) { GradMode::set(false); }
  ~NoGradGuard() { GradMode::set(prev_); }
  NoGradGuard(const NoGradGuard&) = delete;
  NoGradGuard& operator=(const NoGradGuard&) = delete;

 private:
  bool prev_;
};

// Where a gradient goes: input `input_nr` of `node`, with the shape and dtype
// the forward input had, so the engine can sum broadcast grads back down.
struct Edge {
  std::shared_ptr<Node> node;
  uint32_t input_nr = 0;
  Shape sizes;
  DType dtype = DType::Float32;
  bool valid() const { return node != nullptr; }
};

class Node {
 public:
  virtual ~Node() = default;
  // grads: one per output of this node (zeros materialised for missing ones).
  // Returns one gradient per entry of next_edges.
  virtual std::vector<Tensor> apply(std::vector<Tensor> grads) = 0;
  virtual std::string name() const = 0;
  virtual void release_saved() {}
  // The leaf an AccumulateGrad node writes (grad_fn.next_functions' .variable).
  virtual const Tensor* variable() const { return nullptr; }

  std::vector<Edge> next_edges;
  // Shapes and dtypes of this node's outputs (for materialising zero grads).
  std::vector<std::pair<Shape, DType>> out_meta;
  // Where its outputs (and so its gradients) live: zeros are materialised
  // there, and its formula runs with it as the default device.
  Device device;
  // Set by the engine before apply(): output i received no gradient (the one
  // apply() sees is a materialised zero), so formulas can skip its terms
  // without reading the zeros' values.
  std::vector<bool> no_grad_flowed;
  // Non-leaf outputs that asked for retain_grad(): their .grad is set from
  // the gradient this node receives.
  std::vector<std::weak_ptr<TensorImpl>> retained;
  // For nodes that produced views: the storage version when they were made.
  // A later in-place write to the storage (through the base or another view)
  // makes the history stale; gradient_edge then regenerates it from the base.
  bool is_view = false;
  uint32_t view_version = 0;
  // The grad_fn name scripts see when it is not the op's own: a composite
  // that is one node in PyTorch (stack is StackBackward0, not its cat).
  std::string display_name;
};

// Builds the autograd node for one dispatched op (inputs = the bound args).
void record_autograd(const OpDef& op, const std::vector<Value>& args, std::vector<Tensor>& outs,
                     const std::vector<Value>& saved_inputs_before_inplace);

// The edge a gradient for `t` should flow along (grad_fn or the leaf's accumulator).
Edge gradient_edge(const Tensor& t);

// After an in-place op wrote through `view` (whose grad_fn is that op's node),
// moves the write into the history of the view's base (PyTorch's
// CopySlices): the base's new grad_fn routes the view region's gradient
// through the op and the rest straight to the old base; the view becomes a
// fresh as_strided view of the new base.
void rebase_view_history(const Tensor& view);

// Runs backward from `roots` with seed gradients (undefined seed = ones for a scalar).
// With create_graph the formulas run with grad mode on, so the gradients (and
// .grad) are themselves differentiable: higher-order derivatives.
void run_backward(const std::vector<Tensor>& roots, const std::vector<Tensor>& seeds, bool retain_graph,
                  bool create_graph = false);

// torch.autograd.grad: the gradients of `roots` w.r.t. `inputs` (undefined for
// an input the roots do not depend on). No .grad is written, leaves' or
// retained ones.
std::vector<Tensor> grad(const std::vector<Tensor>& roots, const std::vector<Tensor>& seeds,
                         const std::vector<Tensor>& inputs, bool retain_graph, bool create_graph = false);

// Whether a derivative formula is running under create_graph. Dispatch then
// gives the formulas' helper ops that have no derivative of their own
// (the *_backward and *_grad ops that lack one) a node that raises when a second
// derivative reaches it, which would otherwise silently be zero.
bool in_create_graph_formula();

// Whether any tensor argument requires grad (lists included).
bool any_requires_grad(const std::vector<Value>& args);

}  // namespace kiln

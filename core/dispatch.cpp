#include "core/dispatch.h"

#include <map>
#include <memory>
#include <mutex>

#include "core/autocast.h"
#include "core/autograd.h"
#include "core/device.h"
#include "core/kernel_events.h"
#include "core/lazy.h"
#include "core/ops.h"
#include "core/ops/common.h"
#include "traces/recorder.h"

namespace kiln {

namespace {

DispatchObserver* g_observer = nullptr;

// The functional op's result dtype. Where its rule refuses that dtype
// (bitwise ops on Float), PyTorch still reports a promotion that self can't
// hold first: `int_tensor &= 1.5` is a cast error, `float_tensor &= 1` a
// kernel one.
DType inplace_result_dtype(const OpDef& fn, const std::vector<Value>& args) {
  try {
    return fn.dtype(args)[0];
  } catch (const Error& e) {
    if (e.kind() != ErrorKind::NotImplemented || args.size() < 2 || (!args[1].is_tensor() && !args[1].is_number()))
      throw;
    DType self = args[0].tensor().dtype();
    DType promoted = args[1].is_tensor() ? ops::dtype_promote(Args(args.data(), 2))[0]
                     : args[1].is_double() && !is_floating(self) ? kDefaultFloat
                                                                 : self;
    if (can_cast(promoted, self)) throw;
    return promoted;
  }
}

// PyTorch's checks for writing a functional result into self.
void check_inplace(const OpDef& fn, const std::vector<Value>& args, bool grad) {
  const Tensor& self = args[0].tensor();
  if (grad && GradMode::enabled() && self.is_leaf() && self.requires_grad())
    throw Error("a leaf Variable that requires grad is being used in an in-place operation.");
  const Tensor& base = self.impl()->view_base;
  if (grad && GradMode::enabled() && base.defined() && base.is_leaf() && base.requires_grad())
    throw Error("a view of a leaf Variable that requires grad is being used in an in-place operation.");
  Shape want = fn.shape(args)[0];
  KILN_CHECK(want == self.sizes(), Runtime, "output with shape ", self.shape_str(),
             " doesn't match the broadcast shape ", shape_str(want));
  DType result = inplace_result_dtype(fn, args);
  KILN_CHECK(can_cast(result, self.dtype()), Runtime, "result type ", dtype_legacy_name(result),
             " can't be cast to the desired output type ", dtype_legacy_name(self.dtype()));
}

// Writes the functional result of an in-place op into self. `run_kernel`
// false: the kernel is deferred (core/lazy.h) and runs later, in order.
std::vector<Tensor> run_inplace(const OpDef& op, std::vector<Value>& args, bool grad, bool run_kernel) {
  const OpDef& fn = *op.functional;
  check_inplace(fn, args, grad);
  std::vector<Value> before;  // the inputs as the formula must see them: as they were before the write
  if (grad) {
    before = args;
    if (fn.saves & save_in(0)) {  // the formula needs self as it was (deferred: a clone op before this one)
      NoGradGuard ng;
      before[0] = Value(clone(args[0].tensor()));
    }
  }
  std::vector<Tensor> outs{args[0].tensor()};
  if (run_kernel) run_op_kernel(fn, args, outs);
  ++outs[0].storage()->version;
  if (grad) {
    record_autograd(fn, args, outs, before);
    // A write through a view changes its base too: rebase the base's history.
    const Tensor& base = outs[0].impl()->view_base;
    if (base.defined() && is_floating(base.dtype())) rebase_view_history(outs[0]);
  }
  return outs;
}

// Outputs live where the op's tensors do; ops without tensor inputs put them
// on the thread's default device (core/device.h).
std::vector<Tensor> allocate_outputs(const OpDef& op, const std::vector<Value>& args,
                                     const std::vector<Shape>& shapes, const std::vector<DType>& dtypes) {
  Device dev = output_device(op, args);
  std::vector<Tensor> outs;
  outs.reserve(shapes.size());
  for (size_t i = 0; i < shapes.size(); ++i) outs.push_back(empty_tensor(shapes[i], dtypes[i], dev));
  return outs;
}

std::vector<Tensor> run_kernel(const OpDef& op, const std::vector<Value>& args) {
  std::vector<Tensor> outs;
  if (op.kind == OpKind::View) {
    run_op_kernel(op, args, outs);
    return outs;
  }
  outs = allocate_outputs(op, args, op.shape(args), op.dtype(args));
  run_op_kernel(op, args, outs);
  return outs;
}

// Factories (zeros, randn, ...) take requires_grad=: their outputs are leaves
// that require grad from the moment they exist, deferred or not.
void apply_requires_grad_arg(const OpDef& op, const std::vector<Value>& args, std::vector<Tensor>& outs) {
  if (!op.requires_grad_arg || !args.back().to_bool()) return;
  KILN_CHECK(is_floating(outs[0].dtype()), Runtime,
             "Only Tensors of floating point and complex dtype can require gradients");
  outs[0].requires_grad_(true);
}

bool any_pending(const std::vector<Value>& args) {
  bool any = false;
  for_each_tensor(args, [&](const Tensor& t) { any = any || t.storage()->pending; });
  return any;
}

// A new-output op under capture: shapes and dtypes now, the kernel later.
// When the shape function had to run the pending graph (nonzero reads its
// input), the op runs at once: its inputs are ready and its output is about
// to be read too. Returns whether the kernel is still to run.
bool prepare_deferred(const OpDef& op, const std::vector<Value>& args, std::vector<Tensor>& outs) {
  uint64_t syncs = lazy::sync_count();
  std::vector<Shape> shapes;
  std::vector<DType> dtypes;
  {
    lazy::ReasonScope why(lazy::SyncReason::DataDependentShape);
    shapes = op.shape(args);
    dtypes = op.dtype(args);
  }
  outs = allocate_outputs(op, args, shapes, dtypes);
  if (lazy::sync_count() == syncs) return true;
  run_op_kernel(op, args, outs);
  return false;
}

// Under create_graph, a helper op of the derivative formulas (named *_backward or
// *_grad) that has no derivative of its own (most have one: nll_loss_grad,
// convolution_backward, the pools'; cumprod's, prod's and the recurrent layers'
// formulas switch to differentiable ops) gives its results a node whose backward
// raises, so a second derivative that reaches one fails clearly instead of coming
// out as zero, while a create_graph gradient never differentiated again still works.
std::vector<Tensor> refuse_second_derivative(const GradCtx& c) {
  std::string base = c.op->name().substr(0, c.op->name().find('.'));
  throw Error("kiln: the derivative of '" + base +
                  "' is not implemented, so this second derivative cannot be computed (it goes through the "
                  "gradient of an op whose backward has no derivative yet)",
              ErrorKind::NotImplemented);
}
// The op's twin whose derivative is refuse_second_derivative, when `op` is such a helper
// running inside a create_graph formula on inputs that require grad; else nullptr.
const OpDef* refusing_twin(const OpDef& op, const std::vector<Value>& args) {
  if (op.grad || !in_create_graph_formula() || !GradMode::enabled()) return nullptr;
  std::string_view base = std::string_view(op.name()).substr(0, op.name().find('.'));
  if (!(base.ends_with("_backward") || base.ends_with("_grad")) || !any_requires_grad(args)) return nullptr;
  static std::mutex mu;
  static std::map<const OpDef*, std::unique_ptr<OpDef>> twins;
  std::lock_guard<std::mutex> lock(mu);
  std::unique_ptr<OpDef>& twin = twins[&op];
  if (!twin) {
    twin = std::make_unique<OpDef>(op);
    twin->grad = refuse_second_derivative;
  }
  return twin.get();
}

// Everything eager dispatch does, except that the kernel is recorded to run
// later as part of a graph (core/lazy.h).
std::vector<Tensor> dispatch_deferred(const OpDef& op, std::vector<Value> args) {
  const OpDef& fn = op.is_inplace() ? *op.functional : op;
  if (fn.check) {
    lazy::ReasonScope why(lazy::SyncReason::DataDependentCheck);  // a pending index must run first
    run_op_check(fn, args);
  }
  bool grad = fn.grad && GradMode::enabled() && any_requires_grad(args);
  const OpDef* twin = grad ? nullptr : refusing_twin(fn, args);
  std::vector<Tensor> outs;
  bool record = true;
  if (op.is_inplace()) {
    outs = run_inplace(op, args, grad, false);
  } else if (op.kind == OpKind::View) {
    run_op_kernel(op, args, outs);  // metadata only: reads no data
    // A view of data no pending op writes (a batch sliced from a dataset at a
    // changing offset) is finished work: the graph takes it as an input
    // instead of specializing on the view's arguments.
    record = any_pending(args);
  } else {
    record = prepare_deferred(op, args, outs);
    apply_requires_grad_arg(op, args, outs);
  }
  if (grad && !op.is_inplace()) record_autograd(op, args, outs, {});
  if (twin && !op.is_inplace()) record_autograd(*twin, args, outs, {});
  if (g_observer) g_observer->on_op(op, args, outs);
  if (record) lazy::record(op, std::move(args), outs, op.kind != OpKind::View);
  return outs;
}

// Names the nodes a composite created with its op's PyTorch node name; an
// output that is an input (a no-op roll) keeps its own.
void name_composite_nodes(const OpDef& op, const std::vector<Value>& args, std::vector<Tensor>& outs) {
  for (Tensor& out : outs) {
    const std::shared_ptr<Node>& node = out.grad_fn();
    if (!node) continue;
    bool from_input = false;
    for (const Value& a : args) from_input = from_input || (a.is_tensor() && a.tensor().grad_fn() == node);
    if (!from_input) node->display_name = op.grad_node;
  }
}

// A listed op under autocast: its inputs cast (ordinary _to_copy ops, so
// autograd and captured graphs see them), then the op itself with autocast
// off, as PyTorch runs it below its autocast dispatch key.
std::vector<Tensor> dispatch_autocast(const OpDef& op, autocast::Policy policy, std::vector<Value> args) {
  autocast::cast_args(policy, args);
  autocast::ExcludeGuard off;
  return dispatch(op, std::move(args));
}

}  // namespace

std::vector<Tensor> dispatch(const OpDef& op, std::vector<Value> args) {
  if (autocast::armed() && !op.is_inplace()) [[unlikely]] {
    autocast::Policy policy = autocast::policy_of(op);
    if (policy != autocast::Policy::None) return dispatch_autocast(op, policy, std::move(args));
  }
  if (op.kind == OpKind::Composite) {
    DeviceScope on(output_device(op, args));  // the tensors it creates live beside its inputs
    std::vector<Tensor> outs = op.composite(args);
    if (op.grad_node) name_composite_nodes(op, args, outs);
    return outs;
  }
  if (lazy::active()) {
    // An in-place view op rewrites a tensor's metadata that pending ops hold.
    if (op.is_inplace() && op.kind == OpKind::View) lazy::sync(lazy::SyncReason::MetadataMutation);
    // Random ops run at once, so the generator's draws stay in program order
    // (a later manual_seed needs nothing pending); their outputs are graph inputs.
    else if (op.kind != OpKind::Random) return dispatch_deferred(op, std::move(args));
  }
  // Tracing costs one branch when no session records.
  int64_t start_ns = trace::enabled() ? trace::now_ns() : -1;
  const OpDef& fn = op.is_inplace() ? *op.functional : op;
  bool grad = fn.grad && GradMode::enabled() && any_requires_grad(args);
  const OpDef* twin = grad ? nullptr : refusing_twin(fn, args);
  std::vector<Tensor> outs;
  if (op.is_inplace()) {
    outs = run_inplace(op, args, grad, true);
  } else {
    if (op.check) run_op_check(op, args);
    outs = run_kernel(op, args);
    apply_requires_grad_arg(op, args, outs);
    if (grad) record_autograd(op, args, outs, {});
    if (twin) record_autograd(*twin, args, outs, {});
  }
  if (start_ns >= 0) record_kernel_event(op, args, outs, start_ns);
  if (g_observer) g_observer->on_op(op, args, outs);
  return outs;
}

void run_deferred(const lazy::PendingOp& p) {
  const OpDef& op = *p.op;
  if (op.kind == OpKind::View) return;
  int64_t start_ns = trace::enabled() ? trace::now_ns() : -1;
  std::vector<Tensor> outs = p.outs;
  run_op_kernel(op.is_inplace() ? *op.functional : op, p.args, outs);
  if (start_ns >= 0) record_kernel_event(op, p.args, outs, start_ns);
}

namespace {
// Whether a Python number is given for one of the schema's Tensor parameters.
bool number_for_tensor(const Schema& s, std::span<const Value> positional, const Kwargs& kwargs) {
  for (size_t i = 0; i < positional.size() && i < s.args.size(); ++i)
    if (s.args[i].type == ArgType::Tensor && positional[i].is_number()) return true;
  for (const auto& [name, v] : kwargs) {
    int i = s.index_of(name);
    if (i >= 0 && s.args[size_t(i)].type == ArgType::Tensor && v.is_number()) return true;
  }
  return false;
}
// Whether the schema has room for this many positional arguments.
bool takes_positional(const Schema& s, size_t n) {
  size_t room = 0;
  while (room < s.args.size() && !s.args[room].kwarg_only) ++room;
  return n <= room;
}

// PyTorch's argument parser binds a Python number to a Tensor parameter only
// when no overload takes a number there: x ** 2 is pow.Tensor_Scalar
// (PowBackward0) and masked_fill(m, 0.0) is masked_fill.Scalar, though the
// Tensor overloads come first (a 0-dim tensor must not bind as a Scalar).
// The overload to try first, or null when the first one is already that.
const OpDef* overload_for_numbers(std::span<const OpDef* const> overloads, std::span<const Value> positional,
                                  const Kwargs& kwargs) {
  if (overloads.size() < 2 || !number_for_tensor(overloads[0]->schema, positional, kwargs)) return nullptr;
  for (const OpDef* d : overloads.subspan(1))
    if (takes_positional(d->schema, positional.size()) && !number_for_tensor(d->schema, positional, kwargs)) return d;
  return nullptr;
}
}  // namespace

BoundOp bind_op(std::string_view name, std::span<const Value> positional, const Kwargs& kwargs) {
  const OpTable& table = op_table();
  if (name.find('.') != std::string_view::npos) {
    const OpDef& exact = table.get(name);
    return {&exact, bind_args(exact.schema, positional, kwargs)};
  }
  auto overloads = table.overloads(name);
  KILN_CHECK(!overloads.empty(), NotImplemented, "no op named '", name, "' in the op table");
  if (const OpDef* d = overload_for_numbers(overloads, positional, kwargs)) {
    try {
      return {d, bind_args(d->schema, positional, kwargs)};
    } catch (const Error&) {  // the overloads in order, below
    }
  }
  std::string first_error;
  for (const OpDef* d : overloads) {
    try {
      return {d, bind_args(d->schema, positional, kwargs)};
    } catch (const Error& e) {
      if (first_error.empty()) first_error = e.what();
    }
  }
  throw Error(first_error, ErrorKind::Type);
}

std::vector<Tensor> call_op(std::string_view name, std::span<const Value> positional, const Kwargs& kwargs) {
  BoundOp b = bind_op(name, positional, kwargs);
  return dispatch(*b.op, std::move(b.args));
}

void set_dispatch_observer(DispatchObserver* obs) { g_observer = obs; }
DispatchObserver* dispatch_observer() { return g_observer; }

}  // namespace kiln

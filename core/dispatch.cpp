#include "core/dispatch.h"

#include "core/autograd.h"
#include "core/kernel_events.h"
#include "core/ops.h"
#include "traces/recorder.h"

namespace kiln {

namespace {

DispatchObserver* g_observer = nullptr;

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
  DType result = fn.dtype(args)[0];
  KILN_CHECK(can_cast(result, self.dtype()), Runtime, "result type ", dtype_legacy_name(result),
             " can't be cast to the desired output type ", dtype_legacy_name(self.dtype()));
}

std::vector<Tensor> run_inplace(const OpDef& op, std::vector<Value>& args, bool grad) {
  const OpDef& fn = *op.functional;
  check_inplace(fn, args, grad);
  std::vector<Value> before;
  if (grad && (fn.saves & save_in(0))) {  // the formula needs self as it was
    before = args;
    NoGradGuard ng;
    before[0] = Value(clone(args[0].tensor()));
  }
  std::vector<Tensor> outs{args[0].tensor()};
  fn.kernel(args, outs);
  ++outs[0].storage()->version;
  if (grad) {
    record_autograd(fn, args, outs, before);
    // A write through a view changes its base too: rebase the base's history.
    const Tensor& base = outs[0].impl()->view_base;
    if (base.defined() && is_floating(base.dtype())) rebase_view_history(outs[0]);
  }
  return outs;
}

std::vector<Tensor> run_kernel(const OpDef& op, const std::vector<Value>& args) {
  std::vector<Tensor> outs;
  if (op.kind == OpKind::View) {
    op.kernel(args, outs);
    return outs;
  }
  std::vector<Shape> shapes = op.shape(args);
  std::vector<DType> dtypes = op.dtype(args);
  outs.reserve(shapes.size());
  for (size_t i = 0; i < shapes.size(); ++i) outs.push_back(empty_tensor(shapes[i], dtypes[i]));
  op.kernel(args, outs);
  return outs;
}

}  // namespace

std::vector<Tensor> dispatch(const OpDef& op, std::vector<Value> args) {
  if (op.kind == OpKind::Composite) return op.composite(args);
  // Tracing costs one branch when no session records.
  int64_t start_ns = trace::enabled() ? trace::now_ns() : -1;
  const OpDef& fn = op.is_inplace() ? *op.functional : op;
  bool grad = fn.grad && GradMode::enabled() && any_requires_grad(args);
  std::vector<Tensor> outs;
  if (op.is_inplace()) {
    outs = run_inplace(op, args, grad);
  } else {
    outs = run_kernel(op, args);
    if (grad) record_autograd(op, args, outs, {});
  }
  if (start_ns >= 0) record_kernel_event(op, args, outs, start_ns);
  if (g_observer) g_observer->on_op(op, args, outs);
  return outs;
}

std::vector<Tensor> call_op(std::string_view name, std::span<const Value> positional, const Kwargs& kwargs) {
  const OpTable& table = op_table();
  if (name.find('.') != std::string_view::npos) {
    const OpDef& exact = table.get(name);
    return dispatch(exact, bind_args(exact.schema, positional, kwargs));
  }
  auto overloads = table.overloads(name);
  KILN_CHECK(!overloads.empty(), NotImplemented, "no op named '", name, "' in the op table");
  std::string first_error;
  for (const OpDef* d : overloads) {
    std::vector<Value> bound;
    try {
      bound = bind_args(d->schema, positional, kwargs);
    } catch (const Error& e) {
      if (first_error.empty()) first_error = e.what();
      continue;
    }
    return dispatch(*d, std::move(bound));
  }
  throw Error(first_error, ErrorKind::Type);
}

void set_dispatch_observer(DispatchObserver* obs) { g_observer = obs; }
DispatchObserver* dispatch_observer() { return g_observer; }

}  // namespace kiln

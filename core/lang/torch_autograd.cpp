// torch.autograd: grad() and backward() over the engine of core/autograd.h.
// Gradients are not themselves differentiable here (derivative formulas run
// without recording), so create_graph=True is refused with a clear error
// rather than returning gradients a second backward would silently ignore.
#include <string>
#include <vector>

#include "core/autograd.h"
#include "core/lang/interp.h"
#include "core/lang/objops.h"
#include "core/lang/torch_bridge.h"
#include "core/ops.h"

namespace kiln::lang {
namespace {

// A tensor or a sequence of tensors (None entries allowed where `none_ok`).
std::vector<Tensor> tensors_arg(Interp& in, const Obj& o, const char* what, bool none_ok) {
  if (o.kind() == Kind::Tensor) return {tensor_of(o, what)};
  std::vector<Obj> items;
  extend_from_iterable(in, items, o);
  std::vector<Tensor> ts;
  for (const Obj& item : items) {
    if (none_ok && item.is_none()) {
      ts.emplace_back();
      continue;
    }
    ts.push_back(tensor_of(item, what));
  }
  return ts;
}

void refuse_create_graph(Interp& in, const Obj& create_graph, const char* fn) {
  KILN_CHECK(!truthy(in, create_graph), NotImplemented, "kiln: torch.autograd.", fn,
             "(create_graph=True) is not supported: gradients are not differentiable in kiln "
             "(no higher-order derivatives)");
}

std::vector<Tensor> seeds_arg(Interp& in, const Obj& o, size_t n) {
  std::vector<Tensor> seeds = o.is_none() ? std::vector<Tensor>(n) : tensors_arg(in, o, "grad_outputs", true);
  KILN_CHECK(seeds.size() == n, Runtime, "grad requires one gradient per output: got ", seeds.size(),
             " gradients and ", n, " outputs");
  return seeds;
}

// torch.autograd.grad(outputs, inputs, grad_outputs=None, retain_graph=None,
// create_graph=False, only_inputs=True, allow_unused=None, is_grads_batched=False,
// materialize_grads=False)
Obj f_grad(Interp& in, const CallArgs& a) {
  a.check("grad", 2, 9,
          "outputs inputs grad_outputs retain_graph create_graph only_inputs allow_unused is_grads_batched "
          "materialize_grads");
  refuse_create_graph(in, a.arg(4, "create_graph"), "grad");
  KILN_CHECK(!truthy(in, a.arg(7, "is_grads_batched")), NotImplemented,
             "kiln: torch.autograd.grad(is_grads_batched=True) is not supported");
  std::vector<Tensor> outputs = tensors_arg(in, a.arg(0, "outputs"), "outputs", false);
  std::vector<Tensor> inputs = tensors_arg(in, a.arg(1, "inputs"), "inputs", false);
  std::vector<Tensor> seeds = seeds_arg(in, a.arg(2, "grad_outputs"), outputs.size());
  const Obj retain = a.arg(3, "retain_graph");
  const bool materialize = truthy(in, a.arg(8, "materialize_grads"));
  const Obj unused = a.arg(6, "allow_unused");
  const bool allow_unused = materialize || (!unused.is_none() && truthy(in, unused));
  std::vector<Tensor> grads = grad(outputs, seeds, inputs, !retain.is_none() && truthy(in, retain));
  std::vector<Obj> items;
  for (size_t i = 0; i < grads.size(); ++i) {
    if (grads[i].defined()) {
      items.push_back(make_tensor(grads[i]));
      continue;
    }
    KILN_CHECK(allow_unused, Runtime, "The differentiated Tensor at index ", i,
               " appears to not have been used in the graph. Set allow_unused=True if this is the desired behavior.");
    items.push_back(materialize ? make_tensor(zeros_like(inputs[i])) : Obj());
  }
  return make_tuple(std::move(items));
}

// torch.autograd.backward(tensors, grad_tensors=None, retain_graph=None, create_graph=False, inputs=None)
Obj f_backward(Interp& in, const CallArgs& a) {
  a.check("backward", 1, 6, "tensors grad_tensors retain_graph create_graph grad_variables inputs");
  refuse_create_graph(in, a.arg(3, "create_graph"), "backward");
  KILN_CHECK(a.arg(5, "inputs").is_none(), NotImplemented, "kiln: torch.autograd.backward(inputs=...) is not supported");
  std::vector<Tensor> roots = tensors_arg(in, a.arg(0, "tensors"), "tensors", false);
  std::vector<Tensor> seeds = seeds_arg(in, a.arg(1, "grad_tensors"), roots.size());
  const Obj retain = a.arg(2, "retain_graph");
  run_backward(roots, seeds, !retain.is_none() && truthy(in, retain));
  return Obj();
}

}  // namespace

Obj make_autograd_module() {
  Obj m = make<ModuleObj>("torch.autograd");
  ModuleObj& mod = *m.as<ModuleObj>();
  mod.attrs.set("grad", make_builtin("grad", f_grad));
  mod.attrs.set("backward", make_builtin("backward", f_backward));
  return m;
}

}  // namespace kiln::lang

// The native side of torch.autograd (core/lang/prelude/autograd.py): grad()
// and backward() over the engine of core/autograd.h, and the node that links a
// custom torch.autograd.Function into the graph. With create_graph=True the
// formulas record, so gradients are differentiable (higher-order derivatives).
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

// retain_graph=None means create_graph's value, as in PyTorch.
bool retain_arg(Interp& in, const Obj& retain, bool create_graph) {
  return retain.is_none() ? create_graph : truthy(in, retain);
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
  const bool create_graph = truthy(in, a.arg(4, "create_graph"));
  KILN_CHECK(!truthy(in, a.arg(7, "is_grads_batched")), NotImplemented,
             "kiln: torch.autograd.grad(is_grads_batched=True) is not supported");
  std::vector<Tensor> outputs = tensors_arg(in, a.arg(0, "outputs"), "outputs", false);
  std::vector<Tensor> inputs = tensors_arg(in, a.arg(1, "inputs"), "inputs", false);
  std::vector<Tensor> seeds = seeds_arg(in, a.arg(2, "grad_outputs"), outputs.size());
  const Obj retain = a.arg(3, "retain_graph");
  const bool materialize = truthy(in, a.arg(8, "materialize_grads"));
  const Obj unused = a.arg(6, "allow_unused");
  const bool allow_unused = materialize || (!unused.is_none() && truthy(in, unused));
  std::vector<Tensor> grads = grad(outputs, seeds, inputs, retain_arg(in, retain, create_graph), create_graph);
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
  const bool create_graph = truthy(in, a.arg(3, "create_graph"));
  KILN_CHECK(a.arg(5, "inputs").is_none(), NotImplemented, "kiln: torch.autograd.backward(inputs=...) is not supported");
  std::vector<Tensor> roots = tensors_arg(in, a.arg(0, "tensors"), "tensors", false);
  std::vector<Tensor> seeds = seeds_arg(in, a.arg(1, "grad_tensors"), roots.size());
  const Obj retain = a.arg(2, "retain_graph");
  run_backward(roots, seeds, retain_arg(in, retain, create_graph), create_graph);
  return Obj();
}

// Whether `shape` broadcasts to `desired` (the engine sums such a gradient down).
bool expandable_to(const Shape& shape, const Shape& desired) {
  if (shape.size() > desired.size()) return false;
  for (size_t i = 1; i <= shape.size(); ++i) {
    const int64_t s = shape[shape.size() - i], d = desired[desired.size() - i];
    if (s != d && s != 1) return false;
  }
  return true;
}

std::string dims(const Shape& s) {
  std::string out = "[";
  for (size_t i = 0; i < s.size(); ++i) out += (i ? ", " : "") + std::to_string(s[i]);
  return out + "]";
}

// A custom Function's node: its backward is the class's backward(ctx, *grads),
// run by the interpreter; one gradient comes back per forward input.
class FunctionNode final : public Node {
 public:
  FunctionNode(Interp& in, Obj cls, Obj ctx, std::string name, std::vector<bool> is_tensor_input)
      : in_(in), cls_(std::move(cls)), ctx_(std::move(ctx)), name_(std::move(name)),
        is_tensor_input_(std::move(is_tensor_input)) {}
  std::string name() const override { return name_; }

  std::vector<Tensor> apply(std::vector<Tensor> grads) override {
    KILN_CHECK(!released_, Runtime,
               "Trying to backward through the graph a second time (or directly access saved tensors after they have "
               "already been freed). Saved intermediate values of the graph are freed when you call .backward() or "
               "autograd.grad(). Specify retain_graph=True if you need to backward through the graph a second time "
               "or if you need to access saved tensors after calling backward.");
    std::vector<Obj> args{ctx_};
    // ctx.set_materialize_grads(False): the outputs no gradient reached give
    // None rather than the engine's zeros.
    const bool materialize = truthy(in_, getattr(in_, ctx_, "materialize_grads"));
    for (size_t i = 0; i < grads.size(); ++i) {
      const bool flowed = i >= no_grad_flowed.size() || !no_grad_flowed[i];
      args.push_back(grads[i].defined() && (materialize || flowed) ? make_tensor(grads[i]) : Obj());
    }
    Obj backward = getattr(in_, cls_, "backward");
    Obj r = in_.call(backward, args);
    std::vector<Obj> results;
    if (r.kind() == Kind::Tuple) results = r.as<TupleObj>()->items;
    else results.push_back(r);
    KILN_CHECK(results.size() == is_tensor_input_.size(), Runtime, "function ", name_,
               " returned an incorrect number of gradients (expected ", is_tensor_input_.size(), ", got ",
               results.size(), ")");
    std::vector<Tensor> out;
    for (size_t i = 0; i < results.size(); ++i) {
      if (!is_tensor_input_[i]) continue;  // non-tensor inputs have no edge
      out.push_back(results[i].is_none() ? Tensor() : tensor_of(results[i], "gradient"));
      const Edge& e = next_edges[out.size() - 1];
      KILN_CHECK(!out.back().defined() || !e.valid() || expandable_to(e.sizes, out.back().sizes()), Runtime,
                 "Function ", name_, " returned an invalid gradient at index ", i, " - got ",
                 dims(out.back().sizes()), " but expected shape compatible with ", dims(e.sizes));
    }
    return out;
  }
  void release_saved() override {
    ctx_ = Obj();
    released_ = true;
  }

 private:
  Interp& in_;
  Obj cls_, ctx_;
  std::string name_;
  std::vector<bool> is_tensor_input_;
  bool released_ = false;
};

// Whether tensor `o` is one of `items` (the same tensor, not an equal one).
bool listed(const std::vector<Obj>& items, const Obj& o) {
  if (o.kind() != Kind::Tensor) return false;
  for (const Obj& x : items)
    if (x.kind() == Kind::Tensor && x.as<TensorObj>()->tensor.impl() == o.as<TensorObj>()->tensor.impl()) return true;
  return false;
}

// torch._C._function_apply(cls, ctx, inputs, outputs, non_differentiable):
// links the outputs of cls.forward (run without grad) to a FunctionNode whose
// edges lead to the inputs that require grad. Returns the outputs to hand out.
Obj f_function_apply(Interp& in, const CallArgs& a) {
  a.check("_function_apply", 5, 5);
  const Obj &cls = a.pos[0], &ctx = a.pos[1], &outputs = a.pos[3];
  KILN_CHECK(cls.kind() == Kind::Class && a.pos[2].kind() == Kind::Tuple, Type,
             "_function_apply(cls, ctx, inputs, outputs, non_differentiable) needs a class and a tuple of inputs "
             "(it is torch.autograd.Function.apply's helper)");
  const std::vector<Obj>& inputs = a.pos[2].as<TupleObj>()->items;
  std::vector<Obj> skip;
  extend_from_iterable(in, skip, a.pos[4]);
  std::vector<bool> is_tensor;
  std::vector<Edge> edges;
  bool any = false;
  for (const Obj& x : inputs) {
    is_tensor.push_back(x.kind() == Kind::Tensor);
    if (!is_tensor.back()) continue;
    const Tensor& t = x.as<TensorObj>()->tensor;
    const bool needs = GradMode::enabled() && t.requires_grad();
    edges.push_back(needs ? gradient_edge(t) : Edge{});
    any = any || needs;
  }
  const bool single = outputs.kind() != Kind::Tuple;
  std::vector<Obj> outs = single ? std::vector<Obj>{outputs} : outputs.as<TupleObj>()->items;
  if (!any) return outputs;
  auto node = std::make_shared<FunctionNode>(in, cls, ctx, cls.as<ClassObj>()->name + "Backward", std::move(is_tensor));
  node->next_edges = std::move(edges);
  for (size_t i = 0; i < outs.size(); ++i) {
    if (outs[i].kind() != Kind::Tensor) {
      node->out_meta.emplace_back(Shape{}, DType::Float32);
      continue;
    }
    Tensor t = outs[i].as<TensorObj>()->tensor;
    node->out_meta.emplace_back(t.sizes(), t.dtype());
    node->device = t.device();
    if (!is_floating(t.dtype()) || listed(skip, outs[i])) continue;
    if (listed(inputs, outs[i]) || t.impl()->grad_fn) {  // an input returned as is: a fresh alias carries the history
      t = t.detach();
      outs[i] = make_tensor(t);
    }
    t.impl()->grad_fn = node;
    t.impl()->output_nr = uint32_t(i);
  }
  return single ? outs[0] : make_tuple(std::move(outs));
}

}  // namespace

void add_autograd_natives(ModuleObj& c) {
  c.attrs.set("_autograd_grad", make_builtin("grad", f_grad));
  c.attrs.set("_autograd_backward", make_builtin("backward", f_backward));
  c.attrs.set("_function_apply", make_builtin("_function_apply", f_function_apply));
}

}  // namespace kiln::lang

#include "core/autograd.h"

#include <algorithm>
#include <cctype>
#include <unordered_map>

#include "core/autocast.h"
#include "core/device.h"
#include "core/format.h"
#include "core/grad_hooks.h"
#include "core/lazy.h"
#include "core/ops.h"

namespace kiln {

namespace {

thread_local bool g_grad_enabled = true;
thread_local bool g_create_graph_formula = false;

// ---- nodes ------------------------------------------------------------------

// The node for one op-table entry: the values its formula reads, and the
// versions they had, so a later in-place write to them is caught.
class OpNode final : public Node {
 public:
  explicit OpNode(const OpDef& op) : op_(op) {}
  // A saved tensor, its version when saved, and which output of this node it is (-1: an input).
  struct SavedVersion {
    Tensor t;
    uint32_t version;
    int output;
  };
  std::string name() const override { return op_.name() + "_backward"; }

  std::vector<Tensor> apply(std::vector<Tensor> grads) override {
    KILN_CHECK(!released_, Runtime,
               "Trying to backward through the graph a second time (or directly access saved tensors after they have "
               "already been freed). Saved intermediate values of the graph are freed when you call .backward() or "
               "autograd.grad(). Specify retain_graph=True if you need to backward through the graph a second time "
               "or if you need to access saved tensors after calling backward.");
    check_versions();
    std::vector<Tensor> history = GradMode::enabled() ? outs_with_history() : std::vector<Tensor>();
    GradCtx ctx{&op_, args, history.empty() ? std::span<const Tensor>(outs) : std::span<const Tensor>(history),
                grads, &needs, in_sizes, &no_grad_flowed};
    std::vector<Tensor> result = op_.grad(ctx);
    result.resize(next_edges.size());
    return result;
  }

  void release_saved() override {
    args.clear();
    outs.clear();
    saved_versions.clear();
    released_ = true;
  }

  std::vector<Value> args;
  std::vector<Tensor> outs;
  std::weak_ptr<Node> self;  // for outs_with_history
  std::vector<bool> needs;
  std::vector<Shape> in_sizes;
  std::vector<SavedVersion> saved_versions;

 private:
  // Saved outputs are kept detached (a node must not keep itself alive). Under
  // create_graph the formula must see them as this node's results, so a second
  // derivative flows back through the node.
  std::vector<Tensor> outs_with_history() const {
    std::shared_ptr<Node> me = self.lock();
    if (!me) return {};
    std::vector<Tensor> h(outs.size());
    for (size_t i = 0; i < outs.size(); ++i) {
      if (!outs[i].defined()) continue;
      h[i] = outs[i].detach();
      h[i].impl()->grad_fn = me;
      h[i].impl()->output_nr = uint32_t(i);
    }
    return h;
  }

  void check_versions() const {
    for (const SavedVersion& sv : saved_versions) {
      if (sv.t.version() == sv.version) continue;
      throw Error(detail::cat("one of the variables needed for gradient computation has been modified by an "
                              "inplace operation: [torch.", dtype_legacy_name(sv.t.dtype()), "Tensor ",
                              sv.t.shape_str(), "]", saved_origin(sv), " is at version ", sv.t.version(),
                              "; expected version ", sv.version,
                              " instead. Hint: enable anomaly detection to find the operation that failed to "
                              "compute its gradient, with torch.autograd.set_detect_anomaly(True, check_nan=False)."));
    }
  }

  // ", which is output N of Name," as PyTorch words where a modified saved tensor came from: this node
  // for a saved output, else the tensor's history now (nothing for a leaf).
  std::string saved_origin(const SavedVersion& sv) const {
    if (sv.output >= 0) return detail::cat(", which is output ", sv.output, " of ", short_node_name(*this), ",");
    const TensorImpl* impl = sv.t.impl();
    const Node* fn = impl->grad_fn.get();
    if (!fn) return "";
    // A view whose base was written since has, to PyTorch, an as_strided history by now.
    if (fn->is_view && fn->view_version != sv.t.version() && impl->view_base.defined() &&
        impl->view_base.requires_grad())
      return ", which is output 0 of AsStrided,";
    return detail::cat(", which is output ", impl->output_nr, " of ", short_node_name(*fn), ",");
  }

  // The node's name as this message shows it: "MulBackward0" as "Mul"; CopySlices with its C++ namespace.
  static std::string short_node_name(const Node& n) {
    std::string name = grad_fn_name(n);
    if (name == "CopySlices") return "torch::autograd::CopySlices";
    size_t end = name.size();
    while (end > 0 && std::isdigit(static_cast<unsigned char>(name[end - 1]))) --end;
    constexpr std::string_view kBackward = "Backward";
    if (end < name.size() && end > kBackward.size() && name.compare(end - kBackward.size(), kBackward.size(), kBackward) == 0)
      name.resize(end - kBackward.size());
    return name;
  }

  const OpDef& op_;
  bool released_ = false;
};

// Adds incoming gradients into a leaf's .grad.
class AccumulateGrad final : public Node {
 public:
  explicit AccumulateGrad(Tensor leaf) : leaf_(std::move(leaf)) {}
  std::string name() const override { return "AccumulateGrad"; }
  const Tensor* variable() const override { return &leaf_; }
  std::vector<Tensor> apply(std::vector<Tensor> grads) override {
    const Tensor& g = grads[0];
    if (!leaf_.grad().defined()) {
      leaf_.set_grad(clone(g));  // never alias a gradient another tensor may hold
    } else if (GradMode::enabled()) {
      leaf_.set_grad(add(leaf_.grad(), g));  // create_graph: out of place, so .grad keeps its history
    } else {
      Tensor acc = leaf_.grad();
      add_(acc, g);
    }
    run_post_accumulate_hook(leaf_);
    return {};
  }

 private:
  Tensor leaf_;
};

// Where a tensor lies in its storage; enough to re-create it as an as_strided view.
struct Geometry {
  Shape sizes, strides;
  int64_t offset = 0;
  explicit Geometry(const Tensor& t) : sizes(t.sizes()), strides(t.strides()), offset(t.offset()) {}
  // One past the furthest element it reaches.
  int64_t end() const {
    int64_t e = offset + 1;
    for (size_t i = 0; i < sizes.size(); ++i) e += (sizes[i] - 1) * strides[i];
    return e;
  }
};

// A view's history regenerated from its base: the gradient of as_strided.
class AsStridedViewNode final : public Node {
 public:
  AsStridedViewNode(Geometry base, Geometry view) : base_(std::move(base)), view_(std::move(view)) {}
  std::string name() const override { return "AsStridedBackward0"; }
  std::vector<Tensor> apply(std::vector<Tensor> grads) override {
    return {as_strided_backward(grads[0], base_.sizes, base_.strides, base_.offset, view_.sizes, view_.strides,
                                view_.offset)};
  }

 private:
  Geometry base_, view_;
};

// The base's history after an in-place op wrote through one of its views:
// the op's own node receives the view region of the incoming gradient; its
// gradient for the view's old value goes back into that region, and the
// result flows to the base's previous history.
class CopySlices final : public Node {
 public:
  CopySlices(Geometry base, Geometry view, std::shared_ptr<Node> fn)
      : base_(std::move(base)), view_(std::move(view)), fn_(std::move(fn)) {}
  std::string name() const override { return "CopySlices"; }
  void release_saved() override { fn_->release_saved(); }

  std::vector<Tensor> apply(std::vector<Tensor> grads) override {
    const Tensor& g = grads[0];
    // Lay the gradient out in the base's geometry so the view region is addressable.
    int64_t lo = std::min(base_.offset, view_.offset);
    int64_t hi = std::max(shape_numel(base_.sizes) == 0 ? lo : base_.end(),
                          shape_numel(view_.sizes) == 0 ? lo : view_.end());
    Tensor flat = zeros({hi - lo}, g.dtype());
    Tensor result = as_strided(flat, base_.sizes, base_.strides, base_.offset - lo);
    copy_(result, g);
    Tensor region = as_strided(flat, view_.sizes, view_.strides, view_.offset - lo);
    // Under create_graph the view that feeds fn_ saves its source, which the
    // write into `region` below would make stale: it reads a copy instead.
    Tensor source = GradMode::enabled() ? as_strided(clone(flat), view_.sizes, view_.strides, view_.offset - lo) : region;
    std::vector<Tensor> res = fn_->apply({clone(source)});
    res.resize(next_edges.size());
    if (res[0].defined()) {
      copy_(region, res[0]);
    } else {
      zero_(region);
    }
    res[0] = result;
    return res;
  }

 private:
  Geometry base_, view_;
  std::shared_ptr<Node> fn_;
};

// Makes `view`'s grad_fn an as_strided view of its base's current history.
void set_view_history(const Tensor& view) {
  const Tensor& base = view.impl()->view_base;
  auto node = std::make_shared<AsStridedViewNode>(Geometry(base), Geometry(view));
  node->next_edges.push_back(gradient_edge(base));
  node->out_meta.emplace_back(view.sizes(), view.dtype());
  node->device = view.device();
  node->is_view = true;
  node->view_version = view.version();
  view.impl()->grad_fn = std::move(node);
  view.impl()->output_nr = 0;
}

// `written`: the storage an in-place op just wrote (its version already
// bumped). An input sharing it was saved as it was before the write, so a
// formula reading it later (x.mul_(x)) fails the version check, as in PyTorch.
void save_tensor(OpNode& node, const Tensor& t, const Storage* written = nullptr, int output = -1) {
  if (t.defined())
    node.saved_versions.push_back({t, t.version() - (t.storage().get() == written ? 1 : 0), output});
}

// Keeps only the tensors the formula declared it reads.
void save_inputs(OpNode& node, const OpDef& op, const std::vector<Value>& args, const Storage* written) {
  node.args.reserve(args.size());
  for (size_t i = 0; i < args.size(); ++i) {
    const Value& a = args[i];
    bool keep = i < 16 && (op.saves & save_in(int(i)));
    if (a.is_tensor()) {
      // An input that is the in-place op's self is also its output, whose
      // grad_fn is this node: kept detached (same storage and version), as
      // saved outputs are, or the node would keep itself alive.
      const Tensor& t = a.tensor();
      bool is_self = keep && written && t.defined() && t.storage().get() == written;
      node.args.emplace_back(keep ? (is_self ? t.detach() : t) : Tensor());
      if (keep) save_tensor(node, node.args.back().tensor(), written);
    } else if (a.is_tensor_list()) {
      node.args.emplace_back(keep ? a : Value(std::vector<Tensor>{}));
      if (keep)
        for (const Tensor& t : a.tensor_list()) save_tensor(node, t, written);
    } else {
      node.args.push_back(a);
    }
  }
}

void add_input_edge(OpNode& node, const Tensor& t) {
  bool need = t.defined() && t.requires_grad();
  Edge e = need ? gradient_edge(t) : Edge{};
  if (t.defined()) {
    e.sizes = t.sizes();
    e.dtype = t.dtype();
  }
  node.in_sizes.push_back(e.sizes);
  node.needs.push_back(need);
  node.next_edges.push_back(std::move(e));
}

}  // namespace

bool GradMode::enabled() { return g_grad_enabled; }
void GradMode::set(bool on) { g_grad_enabled = on; }

bool any_requires_grad(const std::vector<Value>& args) {
  bool any = false;
  for_each_tensor(args, [&](const Tensor& t) { any = any || t.requires_grad(); });
  return any;
}

Edge gradient_edge(const Tensor& t) {
  TensorImpl* impl = t.impl();
  bool stale_view = impl->grad_fn && impl->grad_fn->is_view && impl->grad_fn->view_version != t.version() &&
                    impl->view_base.defined() && impl->view_base.requires_grad();
  if (stale_view) set_view_history(t);
  if (impl->grad_fn) return Edge{impl->grad_fn, impl->output_nr, t.sizes(), t.dtype()};
  std::shared_ptr<Node> acc = impl->grad_accumulator.lock();
  if (!acc) {
    acc = std::make_shared<AccumulateGrad>(t);
    acc->out_meta.emplace_back(t.sizes(), t.dtype());
    acc->device = t.device();
    impl->grad_accumulator = acc;
  }
  return Edge{acc, 0, t.sizes(), t.dtype()};
}

void record_autograd(const OpDef& op, const std::vector<Value>& args, std::vector<Tensor>& outs,
                     const std::vector<Value>& saved_inputs_before_inplace) {
  auto node = std::make_shared<OpNode>(op);
  node->self = node;
  for (const Value& a : args) {
    if (a.is_tensor()) add_input_edge(*node, a.tensor());
    if (a.is_tensor_list())
      for (const Tensor& t : a.tensor_list()) add_input_edge(*node, t);
  }
  // An in-place op (outs[0] is self, already written) passes its inputs as they were before.
  const Storage* written = saved_inputs_before_inplace.empty() ? nullptr : outs[0].storage().get();
  save_inputs(*node, op, saved_inputs_before_inplace.empty() ? args : saved_inputs_before_inplace, written);
  node->outs.resize(outs.size());
  if (op.kind == OpKind::View && !outs.empty()) {
    node->is_view = true;
    node->view_version = outs[0].version();
  }
  for (size_t i = 0; i < outs.size(); ++i) {
    Tensor& out = outs[i];
    node->out_meta.emplace_back(out.sizes(), out.dtype());
    node->device = out.device();
    if (i < 16 && (op.saves & save_out(int(i)))) {
      node->outs[i] = out.detach();  // no grad_fn: a saved output must not keep its own node alive
      save_tensor(*node, node->outs[i], nullptr, int(i));
    }
    if (!is_floating(out.dtype())) continue;  // integer outputs (indices) are not differentiable
    out.impl()->grad_fn = node;
    out.impl()->output_nr = uint32_t(i);
  }
}

void rebase_view_history(const Tensor& view) {
  const Tensor& base = view.impl()->view_base;
  std::shared_ptr<Node> fn = view.impl()->grad_fn;
  if (!fn || !base.defined()) return;
  auto copy_slices = std::make_shared<CopySlices>(Geometry(base), Geometry(view), fn);
  copy_slices->next_edges = fn->next_edges;
  Edge old_base = base.requires_grad() ? gradient_edge(base) : Edge{};
  old_base.sizes = base.sizes();
  old_base.dtype = base.dtype();
  copy_slices->next_edges[0] = std::move(old_base);
  copy_slices->out_meta.emplace_back(base.sizes(), base.dtype());
  copy_slices->device = base.device();
  base.impl()->grad_fn = std::move(copy_slices);
  base.impl()->output_nr = 0;
  set_view_history(view);
}

// ---- engine -----------------------------------------------------------------

namespace {

// Reduces a broadcast gradient to the input's shape and dtype (PyTorch's validate_outputs).
Tensor fit_gradient(Tensor g, const Edge& e) {
  if (g.sizes() != e.sizes) g = sum_to(g, e.sizes);
  if (g.dtype() != e.dtype) g = to_dtype(g, e.dtype);
  return g;
}

struct GraphTask {
  std::unordered_map<Node*, int> deps;
  std::unordered_map<Node*, std::vector<Tensor>> buffers;

  void count_dependencies(Node* root) {
    std::vector<Node*> stack{root};
    std::unordered_map<Node*, bool> seen{{root, true}};
    while (!stack.empty()) {
      Node* n = stack.back();
      stack.pop_back();
      for (const Edge& e : n->next_edges) {
        if (!e.valid()) continue;
        ++deps[e.node.get()];
        if (!seen[e.node.get()]) {
          seen[e.node.get()] = true;
          stack.push_back(e.node.get());
        }
      }
    }
  }

  void accumulate(Node* n, uint32_t slot, Tensor g) {
    auto& buf = buffers[n];
    if (buf.empty()) buf.resize(n->out_meta.size());
    buf[slot] = buf[slot].defined() ? add(buf[slot], g) : std::move(g);
  }

  std::vector<Tensor> take_inputs(Node* n) {
    std::vector<Tensor> grads = std::move(buffers[n]);
    buffers.erase(n);
    grads.resize(n->out_meta.size());
    n->no_grad_flowed.assign(grads.size(), false);
    DeviceScope on(n->device);
    for (size_t i = 0; i < grads.size(); ++i) {
      if (grads[i].defined()) continue;
      grads[i] = zeros(n->out_meta[i].first, n->out_meta[i].second);
      n->no_grad_flowed[i] = true;
    }
    return grads;
  }
};

}  // namespace

namespace {
// What autograd.grad collects: the gradient arriving at each edge. While a
// capture is active, leaves accumulate nothing and retained grads stay unset.
struct Capture {
  std::vector<Edge> edges;
  std::vector<Tensor> grads;
};
struct BackwardOptions {
  bool retain_graph = false, create_graph = false;
};
void run_backward_graph(const std::vector<Tensor>& roots, const std::vector<Tensor>& seeds, BackwardOptions opt,
                        Capture* capture);

// Runs the backward pass as one captured graph when the JIT has a backward region
// (not under create_graph: the graph it builds outlives the pass).
void run_backward_region(const std::vector<Tensor>& roots, const std::vector<Tensor>& seeds, BackwardOptions opt,
                         Capture* capture) {
  const lazy::Region* region = lazy::backward_region();
  if (!region || lazy::suspended() || opt.create_graph) return run_backward_graph(roots, seeds, opt, capture);
  lazy::begin_capture(*region);
  try {
    run_backward_graph(roots, seeds, opt, capture);
  } catch (...) {
    lazy::end_capture(true);
    throw;
  }
  lazy::end_capture(false);
}
}  // namespace

// With the JIT installed, a backward pass is a region of its own (or part of
// the region it runs in): its ops become one graph, not one kernel at a time.
void run_backward(const std::vector<Tensor>& roots, const std::vector<Tensor>& seeds, bool retain_graph,
                  bool create_graph) {
  run_backward_region(roots, seeds, {retain_graph, create_graph}, nullptr);
}

std::vector<Tensor> grad(const std::vector<Tensor>& roots, const std::vector<Tensor>& seeds,
                         const std::vector<Tensor>& inputs, bool retain_graph, bool create_graph) {
  Capture capture;
  for (size_t i = 0; i < inputs.size(); ++i) {
    KILN_CHECK(inputs[i].requires_grad(), Runtime, "One of the differentiated Tensors does not require grad");
    capture.edges.push_back(gradient_edge(inputs[i]));
  }
  capture.grads.resize(inputs.size());
  run_backward_region(roots, seeds, {retain_graph, create_graph}, &capture);
  return std::move(capture.grads);
}

bool in_create_graph_formula() { return g_create_graph_formula; }

namespace {
// Grad mode and the formula flag for one backward pass, restored after it.
class FormulaModeGuard {
 public:
  explicit FormulaModeGuard(bool create_graph)
      : grad_(GradMode::enabled()), formula_(g_create_graph_formula) {
    GradMode::set(create_graph);  // formulas build a graph only under create_graph
    g_create_graph_formula = create_graph;
  }
  ~FormulaModeGuard() {
    GradMode::set(grad_);
    g_create_graph_formula = formula_;
  }
  FormulaModeGuard(const FormulaModeGuard&) = delete;
  FormulaModeGuard& operator=(const FormulaModeGuard&) = delete;

 private:
  bool grad_, formula_;
  autocast::ExcludeGuard no_autocast_;  // gradients keep their forward ops' dtypes
};

void run_backward_graph(const std::vector<Tensor>& roots, const std::vector<Tensor>& seeds, BackwardOptions opt,
                        Capture* capture) {
  FormulaModeGuard mode(opt.create_graph);
  const bool retain_graph = opt.retain_graph;
  struct Root final : public Node {
    std::string name() const override { return "GraphRoot"; }
    std::vector<Tensor> apply(std::vector<Tensor> g) override { return g; }
  };
  auto root = std::make_shared<Root>();
  std::vector<Tensor> seed_grads;
  for (size_t i = 0; i < roots.size(); ++i) {
    const Tensor& r = roots[i];
    KILN_CHECK(r.requires_grad(), Runtime, "element ", i,
               " of tensors does not require grad and does not have a grad_fn");
    Tensor seed = i < seeds.size() ? seeds[i] : Tensor();
    if (!seed.defined()) {
      KILN_CHECK(r.numel() == 1, Runtime, "grad can be implicitly created only for scalar outputs");
      DeviceScope on(r.device());
      seed = ones(r.sizes(), r.dtype());
    }
    KILN_CHECK(seed.sizes() == r.sizes(), Runtime, "Mismatch in shape: grad_output[", i, "] has a shape of torch.Size(",
               seed.shape_str(), ") and output[", i, "] has a shape of torch.Size(", r.shape_str(), ").");
    root->out_meta.emplace_back(r.sizes(), r.dtype());
    root->device = r.device();
    root->next_edges.push_back(gradient_edge(r));
    seed_grads.push_back(seed);
  }

  GraphTask task;
  task.count_dependencies(root.get());
  std::vector<std::pair<Node*, std::vector<Tensor>>> ready{{root.get(), seed_grads}};
  std::vector<std::shared_ptr<Node>> keep_alive;
  while (!ready.empty()) {
    auto [node, grads] = std::move(ready.back());
    ready.pop_back();
    for (size_t i = 0; i < grads.size(); ++i) grads[i] = apply_grad_hook(*node, i, std::move(grads[i]));
    if (capture) {
      for (size_t i = 0; i < capture->edges.size(); ++i)
        if (capture->edges[i].node.get() == node && capture->edges[i].input_nr < grads.size())
          capture->grads[i] = grads[capture->edges[i].input_nr];
      if (dynamic_cast<AccumulateGrad*>(node)) continue;  // a leaf: autograd.grad writes no .grad
    } else {
      for (size_t i = 0; i < node->retained.size() && i < grads.size(); ++i) {
        if (auto impl = node->retained[i].lock()) impl->grad = clone(grads[i]);
      }
    }
    DeviceScope on(node->device);
    std::vector<Tensor> outs = node->apply(std::move(grads));
    if (!retain_graph) node->release_saved();
    for (size_t k = 0; k < node->next_edges.size(); ++k) {
      const Edge& e = node->next_edges[k];
      if (!e.valid()) continue;
      Node* next = e.node.get();
      if (k < outs.size() && outs[k].defined()) task.accumulate(next, e.input_nr, fit_gradient(outs[k], e));
      if (--task.deps[next] == 0) {
        keep_alive.push_back(e.node);
        ready.emplace_back(next, task.take_inputs(next));
      }
    }
  }
}
}  // namespace

}  // namespace kiln

#include "core/autograd.h"

#include <unordered_map>

#include "core/ops.h"

namespace kiln {

namespace {

thread_local bool g_grad_enabled = true;

// ---- nodes ------------------------------------------------------------------

// The node for one op-table entry: the values its formula reads, and the
// versions they had, so a later in-place write to them is caught.
class OpNode final : public Node {
 public:
  explicit OpNode(const OpDef& op) : op_(op) {}
  std::string name() const override { return op_.name() + "_backward"; }

  std::vector<Tensor> apply(std::vector<Tensor> grads) override {
    KILN_CHECK(!released_, Runtime,
               "Trying to backward through the graph a second time (or directly access saved tensors after "
               "they have already been freed). Specify retain_graph=True if you need to backward through the "
               "graph a second time.");
    check_versions();
    GradCtx ctx{&op_, args, outs, grads, &needs, in_sizes};
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
  std::vector<bool> needs;
  std::vector<Shape> in_sizes;
  std::vector<std::pair<Tensor, uint32_t>> saved_versions;

 private:
  void check_versions() const {
    for (size_t i = 0; i < saved_versions.size(); ++i) {
      const auto& [t, v] = saved_versions[i];
      if (t.version() == v) continue;
      throw Error(detail::cat("one of the variables needed for gradient computation has been modified by an "
                              "inplace operation: [torch.", dtype_legacy_name(t.dtype()), "Tensor ",
                              t.shape_str(), "], which is used by ", name(), ", is at version ", t.version(),
                              "; expected version ", v, " instead."));
    }
  }

  const OpDef& op_;
  bool released_ = false;
};

// Adds incoming gradients into a leaf's .grad.
class AccumulateGrad final : public Node {
 public:
  explicit AccumulateGrad(Tensor leaf) : leaf_(std::move(leaf)) {}
  std::string name() const override { return "AccumulateGrad"; }
  std::vector<Tensor> apply(std::vector<Tensor> grads) override {
    const Tensor& g = grads[0];
    if (!leaf_.grad().defined()) {
      leaf_.set_grad(clone(g));  // never alias a gradient another tensor may hold
    } else {
      Tensor acc = leaf_.grad();
      add_(acc, g);
    }
    return {};
  }

 private:
  Tensor leaf_;
};

void save_tensor(OpNode& node, const Tensor& t) {
  if (t.defined()) node.saved_versions.emplace_back(t, t.version());
}

// Keeps only the tensors the formula declared it reads.
void save_inputs(OpNode& node, const OpDef& op, const std::vector<Value>& args) {
  node.args.reserve(args.size());
  for (size_t i = 0; i < args.size(); ++i) {
    const Value& a = args[i];
    bool keep = i < 16 && (op.saves & save_in(int(i)));
    if (a.is_tensor()) {
      node.args.emplace_back(keep ? a.tensor() : Tensor());
      if (keep) save_tensor(node, a.tensor());
    } else if (a.is_tensor_list()) {
      node.args.emplace_back(keep ? a : Value(std::vector<Tensor>{}));
      if (keep)
        for (const Tensor& t : a.tensor_list()) save_tensor(node, t);
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
  for (const Value& a : args) {
    if (a.is_tensor() && a.tensor().defined() && a.tensor().requires_grad()) return true;
    if (a.is_tensor_list())
      for (const Tensor& t : a.tensor_list())
        if (t.requires_grad()) return true;
  }
  return false;
}

Edge gradient_edge(const Tensor& t) {
  TensorImpl* impl = t.impl();
  if (impl->grad_fn) return Edge{impl->grad_fn, impl->output_nr, t.sizes(), t.dtype()};
  std::shared_ptr<Node> acc = impl->grad_accumulator.lock();
  if (!acc) {
    acc = std::make_shared<AccumulateGrad>(t);
    acc->out_meta.emplace_back(t.sizes(), t.dtype());
    impl->grad_accumulator = acc;
  }
  return Edge{acc, 0, t.sizes(), t.dtype()};
}

void record_autograd(const OpDef& op, const std::vector<Value>& args, std::vector<Tensor>& outs,
                     const std::vector<Value>& saved_inputs_before_inplace) {
  auto node = std::make_shared<OpNode>(op);
  for (const Value& a : args) {
    if (a.is_tensor()) add_input_edge(*node, a.tensor());
    if (a.is_tensor_list())
      for (const Tensor& t : a.tensor_list()) add_input_edge(*node, t);
  }
  save_inputs(*node, op, saved_inputs_before_inplace.empty() ? args : saved_inputs_before_inplace);
  node->outs.resize(outs.size());
  for (size_t i = 0; i < outs.size(); ++i) {
    Tensor& out = outs[i];
    node->out_meta.emplace_back(out.sizes(), out.dtype());
    if (i < 16 && (op.saves & save_out(int(i)))) {
      node->outs[i] = out.detach();  // no grad_fn: a saved output must not keep its own node alive
      save_tensor(*node, node->outs[i]);
    }
    if (!is_floating(out.dtype())) continue;  // integer outputs (indices) are not differentiable
    out.impl()->grad_fn = node;
    out.impl()->output_nr = uint32_t(i);
  }
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
    for (size_t i = 0; i < grads.size(); ++i)
      if (!grads[i].defined()) grads[i] = zeros(n->out_meta[i].first, n->out_meta[i].second);
    return grads;
  }
};

}  // namespace

void run_backward(const std::vector<Tensor>& roots, const std::vector<Tensor>& seeds, bool retain_graph) {
  NoGradGuard no_grad;  // formulas run without building a graph (no create_graph)
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
      seed = ones(r.sizes(), r.dtype());
    }
    KILN_CHECK(seed.sizes() == r.sizes(), Runtime, "Mismatch in shape: grad_output[", i, "] has a shape of ",
               seed.shape_str(), " and output[", i, "] has a shape of ", r.shape_str(), ".");
    root->out_meta.emplace_back(r.sizes(), r.dtype());
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
    for (size_t i = 0; i < node->retained.size() && i < grads.size(); ++i) {
      if (auto impl = node->retained[i].lock()) impl->grad = clone(grads[i]);
    }
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

}  // namespace kiln

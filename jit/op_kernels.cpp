#include "jit/op_kernels.h"

#include <algorithm>

#include "core/lowering.h"
#include "jit/graph.h"
#include "jit/guards.h"

namespace kiln::jit {

namespace {

std::string key_of(const lazy::PendingOp& p, Device device) {
  Signature sig = make_signature({&p, 1}, DynamicSpec{});
  std::string key(reinterpret_cast<const char*>(sig.guards.data()), sig.guards.size() * sizeof(Guard));
  key += device.str();
  return key;
}

// The creation ops that fill their output with one value: a kernel of one
// store (the op table's eager kernels are host loops). The value: a constant
// for zeros/ones/empty, a parameter (argument 1) for full.
std::unique_ptr<FusedKernel> fill_kernel(const lazy::PendingOp& p) {
  const std::string& n = p.op->name();
  // Kiln's empty is zeroed, as on the CPU, so results never depend on the device.
  const bool zero = n == "zeros" || n == "zeros_like" || n == "empty" || n == "empty_like";
  const bool one = n == "ones" || n == "ones_like";
  const bool full = n == "full" || n == "full_like";
  if ((!zero && !one && !full) || p.outs.size() != 1) return nullptr;
  const Tensor& out = p.outs[0];
  if (!kir::lowerable_type(out.dtype()) || !out.is_contiguous()) return nullptr;
  auto fk = std::make_unique<FusedKernel>();
  kir::Kernel& k = fk->kernel;
  k.name = "fused_fill";
  k.rank = std::max<int32_t>(1, int32_t(out.dim()));
  k.operands.push_back({.dtype = out.dtype(), .inner = kir::Inner::Contiguous, .output = true});
  kir::Builder b(k);
  kir::ExprId v = full ? b.param(0, DType::Float64) : b.constant(one ? 1 : 0, DType::Float64);
  if (full) {
    k.num_params = 1;
    fk->params.push_back({.node = 0, .arg = 1});
  }
  k.stores.push_back({.operand = 0, .value = b.cast(v, out.dtype())});
  fk->operands.push_back({.tensor = {.node = 0, .out = 0}});
  fk->domain = {.node = 0, .out = 0};
  fk->nodes = {0};
  return fk;
}

// The one-node plan's kernel when the node fused whole into it.
std::unique_ptr<FusedKernel> plan_one(const lazy::PendingOp& p, Device device) {
  if (auto fill = fill_kernel(p)) return fill;
  if (!p.op->lower && !(p.op->functional && p.op->functional->lower)) return nullptr;
  Graph g = build_graph({&p, 1});
  std::vector<bool> live(g.values.size(), true);
  FusionPlan plan = fuse(g, {&p, 1}, live, device);
  if (plan.kernels.size() != 1 || plan.steps.size() != 1 || plan.steps[0] != -1) return nullptr;
  return std::make_unique<FusedKernel>(std::move(plan.kernels[0]));
}

// t's storage seen with other sizes and strides (a kernel's view).
Tensor alias(const Tensor& t, Shape sizes, Shape strides) {
  return storage_view(t.storage(), std::move(sizes), std::move(strides), t.offset(), t.dtype());
}

bool reduces_over_dims(const OpDef& op) {
  const std::string& n = op.name();
  return n == "sum" || n == "mean" || n == "amax" || n == "amin";
}

// Row kernels reduce the last dim. A reduction over others (a bias
// gradient's sum over the batch) is the same reduction over the last dim of
// a view that moves the reduced dims, merged into one, to the end: the Row
// kernel reads it with a stride. False when the dims do not merge.
bool move_reduced_dims_last(lazy::PendingOp& p) {
  if (!reduces_over_dims(*p.op)) return false;
  const Tensor& x = p.args[0].tensor();
  const int64_t rank = x.dim();
  // No dims (None, or amax's []): every dim, into one row.
  const bool all = !p.args[1].is_int_list() || p.args[1].int_list().empty();
  std::vector<bool> reduced(size_t(rank), all);
  if (!all)
    for (int64_t d : p.args[1].int_list()) reduced[size_t(wrap_dim(d, rank))] = true;
  if (rank == 0 || (reduced[size_t(rank - 1)] && std::count(reduced.begin(), reduced.end(), true) == 1)) return false;
  Shape kept_sizes, kept_strides, out_strides;
  int64_t merged = 1, inner_stride = 1;
  bool seen = false;
  for (int64_t d = 0; d < rank; ++d) {
    if (!reduced[size_t(d)]) {
      kept_sizes.push_back(x.size(d));
      kept_strides.push_back(x.stride(d));
      continue;
    }
    if (x.size(d) == 1) continue;
    // The next reduced dim must continue this one in memory for the two to merge.
    if (seen && inner_stride != x.size(d) * x.stride(d)) return false;
    merged *= x.size(d);
    inner_stride = x.stride(d);
    seen = true;
  }
  const Tensor& out = p.outs[0];
  const bool keepdim = p.args[2].to_bool();
  for (int64_t d = 0; d < out.dim(); ++d)
    if (!keepdim || !reduced[size_t(d)]) out_strides.push_back(out.stride(d));
  if (out_strides.size() != kept_sizes.size()) return false;
  Shape view_sizes = kept_sizes, view_strides = kept_strides;
  view_sizes.push_back(merged);
  view_strides.push_back(inner_stride);
  p.args[0] = Value(alias(x, view_sizes, view_strides));
  p.args[1] = Value(Shape{-1});
  p.args[2] = Value(false);
  p.outs[0] = alias(out, kept_sizes, out_strides);
  return true;
}

// cat as copies of its inputs into slices of the output. Skips what the
// eager kernel skips (PyTorch's legacy rule: 1-D inputs of size 0).
std::vector<lazy::PendingOp> cat_pieces(const Args& args, const Tensor& out) {
  static const OpDef& clone = op_table().get("clone");
  const int64_t dim = wrap_dim(args[1].to_int(), out.dim());
  std::vector<lazy::PendingOp> pieces;
  int64_t at = 0;
  for (const Tensor& t : args[0].tensor_list()) {
    if (t.dim() == 1 && t.size(0) == 0) continue;
    Shape sizes = out.sizes();
    sizes[size_t(dim)] = t.size(dim);
    Tensor slice = storage_view(out.storage(), sizes, out.strides(), out.offset() + at * out.stride(dim), out.dtype());
    at += t.size(dim);
    if (t.numel() > 0) pieces.push_back({&clone, {Value(t)}, {slice}, 0});
  }
  return pieces;
}

}  // namespace

std::vector<lazy::PendingOp> OpKernels::pieces(const OpDef& op, const Args& args, const std::vector<Tensor>& outs) {
  if (op.name() == "cat" && outs.size() == 1) return cat_pieces(args, outs[0]);
  return {lazy::PendingOp{&op, std::vector<Value>(args.begin(), args.end()), outs, 0}};
}

const FusedKernel* OpKernels::find(lazy::PendingOp& p, Device device) {
  move_reduced_dims_last(p);
  std::string key = key_of(p, device);
  std::lock_guard lock(mu_);
  auto it = by_signature_.find(key);
  if (it == by_signature_.end()) it = by_signature_.emplace(std::move(key), plan_one(p, device)).first;
  return it->second.get();
}

size_t OpKernels::size() const {
  std::lock_guard lock(mu_);
  return by_signature_.size();
}

}  // namespace kiln::jit

#include "jit/op_kernels.h"

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

// The one-node plan's kernel when the node fused whole into it.
std::unique_ptr<FusedKernel> plan_one(const lazy::PendingOp& p, Device device) {
  if (!p.op->lower && !(p.op->functional && p.op->functional->lower)) return nullptr;
  Graph g = build_graph({&p, 1});
  std::vector<bool> live(g.values.size(), true);
  FusionPlan plan = fuse(g, {&p, 1}, live, device);
  if (plan.kernels.size() != 1 || plan.steps.size() != 1 || plan.steps[0] != -1) return nullptr;
  return std::make_unique<FusedKernel>(std::move(plan.kernels[0]));
}

}  // namespace

const FusedKernel* OpKernels::find(const lazy::PendingOp& p, Device device) {
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

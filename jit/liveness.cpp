#include "jit/liveness.h"

#include <unordered_map>

#include "jit/fusion.h"

namespace kiln::jit {

namespace {

uint64_t mix(uint64_t h, uint64_t v) { return (h ^ v) * 0x100000001b3ull; }

struct ImplInfo {
  long held = 0;  // references the pending ops (and dead views among them) hold
  long uses = 0;  // all references (shared_ptr use count)
  bool base_counted = false;
};

struct StorageInfo {
  long impls = 0;  // distinct impls among the ops' tensors that use it
  long first = -1; // order of first sight, for the sharing pattern
  bool live = false;
};

}  // namespace

Liveness liveness(const Graph& g, std::span<const lazy::PendingOp> ops) {
  std::unordered_map<const TensorImpl*, ImplInfo> impls;
  impls.reserve(ops.size() * 4);
  std::unordered_map<const Storage*, StorageInfo> storages;
  storages.reserve(ops.size() * 2);
  uint64_t key = 0xcbf29ce484222325ull;
  auto see = [&](const Tensor& t) {
    if (!t.defined()) return;
    auto [it, fresh] = impls.try_emplace(t.impl());
    ++it->second.held;
    if (!fresh) return;
    it->second.uses = t.impl_ptr().use_count();
    auto [st, new_storage] = storages.try_emplace(t.storage().get());
    if (new_storage) st->second.first = long(storages.size() - 1);
    ++st->second.impls;
    key = mix(key, uint64_t(st->second.first));
  };
  for (const lazy::PendingOp& p : ops) {
    for_each_tensor(p.args, see);
    for (const Tensor& t : p.outs) see(t);
  }
  // A view only the ops hold keeps its base alive only through them. (A
  // .grad reference counts as outside: the tensor owning it may be held.)
  for (int pass = 0; pass < 2; ++pass)
    for (auto& [impl, info] : impls) {
      if (info.base_counted || !impl->view_base.defined() || info.uses > info.held) continue;
      auto base = impls.find(impl->view_base.impl());
      if (base == impls.end()) continue;
      info.base_counted = true;
      ++base->second.held;
    }
  for (const auto& [impl, info] : impls) {
    StorageInfo& s = storages[impl->storage.get()];
    if (impl->storage.use_count() > s.impls || info.uses > info.held) s.live = true;
  }
  // Memory a graph input refers to is the script's: what lands there stays.
  // (An input may alias a node's output, as a detach()ed saved tensor does.)
  for (ValueId v : g.tensor_inputs) {
    const Tensor& t = resolve(ref_of(g, v), ops);
    if (t.defined()) storages[t.storage().get()].live = true;
  }

  Liveness out;
  out.live.assign(g.values.size(), true);
  for (size_t v = 0; v < g.values.size(); ++v) {
    const IrValue& iv = g.values[v];
    if (iv.kind != IrValue::Kind::NodeOutput || iv.node < 0) continue;
    const Tensor& t = ops[size_t(iv.node)].outs[size_t(iv.out_index)];
    out.live[v] = t.defined() && storages[t.storage().get()].live;
    key = mix(key, out.live[v]);
  }
  out.key = key;
  return out;
}

}  // namespace kiln::jit

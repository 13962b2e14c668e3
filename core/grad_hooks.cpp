#include "core/grad_hooks.h"

#include <map>
#include <memory>
#include <utility>

#include "core/autograd.h"
#include "core/error.h"

namespace kiln {
namespace {

// A leaf is keyed by its TensorImpl, a non-leaf by its grad_fn and output_nr;
// the weak owner tells a live entry from one whose tensor (or node) died and
// whose address was reused.
struct Entry {
  std::weak_ptr<void> owner;
  GradHook run;
};
using Key = std::pair<const void*, size_t>;
std::map<Key, Entry>& registry() {
  static std::map<Key, Entry> r;
  return r;
}

Key key_of(const Tensor& t) {
  if (t.is_leaf()) return {t.impl(), 0};
  return {t.grad_fn().get(), t.impl()->output_nr};
}

GradHook* lookup(const Key& k) {
  auto& r = registry();
  auto it = r.find(k);
  if (it == r.end()) return nullptr;
  if (it->second.owner.expired()) {
    r.erase(it);
    return nullptr;
  }
  return &it->second.run;
}

}  // namespace

void set_grad_hook(const Tensor& t, GradHook run) {
  KILN_CHECK(t.requires_grad(), Runtime, "cannot register a hook on a tensor that doesn't require gradient");
  std::erase_if(registry(), [](const auto& e) { return e.second.owner.expired(); });  // tensors since freed
  std::weak_ptr<void> owner = t.is_leaf() ? std::weak_ptr<void>(t.impl_ptr()) : std::weak_ptr<void>(t.grad_fn());
  registry()[key_of(t)] = Entry{std::move(owner), std::move(run)};
}

GradHook* find_grad_hook(const Tensor& t) { return lookup(key_of(t)); }

Tensor apply_grad_hook(Node& node, size_t output_nr, Tensor grad) {
  if (registry().empty() || !grad.defined()) return grad;
  const Tensor* leaf = node.variable();
  GradHook* run = leaf ? lookup({leaf->impl(), 0}) : lookup({&node, output_nr});
  if (!run) return grad;
  Tensor replaced = (*run)(grad);
  if (!replaced.defined()) return grad;
  KILN_CHECK(replaced.sizes() == grad.sizes(), Runtime, "hook changed the shape of the gradient: expected ",
             grad.shape_str(), ", got ", replaced.shape_str());
  return replaced;
}

namespace {
struct PostEntry {
  std::weak_ptr<void> owner;
  PostAccumulateHook run;
};
std::map<const void*, PostEntry>& post_registry() {
  static std::map<const void*, PostEntry> r;
  return r;
}
}  // namespace

void set_post_accumulate_hook(const Tensor& leaf, PostAccumulateHook run) {
  KILN_CHECK(leaf.requires_grad(), Runtime, "cannot register a hook on a tensor that doesn't require gradient");
  KILN_CHECK(leaf.is_leaf(), Runtime, "post accumulate grad hooks cannot be registered on non-leaf tensors");
  std::erase_if(post_registry(), [](const auto& e) { return e.second.owner.expired(); });
  post_registry()[leaf.impl()] = PostEntry{std::weak_ptr<void>(leaf.impl_ptr()), std::move(run)};
}

PostAccumulateHook* find_post_accumulate_hook(const Tensor& leaf) {
  auto it = post_registry().find(leaf.impl());
  if (it == post_registry().end() || it->second.owner.expired()) return nullptr;
  return &it->second.run;
}

void run_post_accumulate_hook(const Tensor& leaf) {
  if (post_registry().empty()) return;
  if (PostAccumulateHook* run = find_post_accumulate_hook(leaf)) (*run)(leaf);
}

void clear_grad_hooks() {
  registry().clear();
  post_registry().clear();
}

}  // namespace kiln

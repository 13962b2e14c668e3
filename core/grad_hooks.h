// Tensor.register_hook's core: one hook runner per tensor that asked, called by
// the backward engine with the gradient arriving for that tensor (before a leaf
// accumulates it, before a non-leaf's grad_fn or retain_grad sees it). A
// runner returns the gradient to use instead, or an undefined tensor to keep
// it. Kept beside the autograd graph (not in TensorImpl or Node), keyed by the
// leaf or by (grad_fn, output_nr), and checked against expiry, so a tensor that
// registered nothing pays nothing.
#pragma once

#include <functional>

#include "core/tensor.h"

namespace kiln {

class Node;
using GradHook = std::function<Tensor(const Tensor&)>;

// Installs t's runner, replacing the one it had. t must require grad.
void set_grad_hook(const Tensor& t, GradHook run);
// t's runner, or nullptr.
GradHook* find_grad_hook(const Tensor& t);
// The gradient for output `output_nr` of `node` after its tensor's runner (for an
// AccumulateGrad node: its leaf's).
Tensor apply_grad_hook(Node& node, size_t output_nr, Tensor grad);
// Tensor.register_post_accumulate_grad_hook's core: one runner per leaf,
// called with the leaf once its AccumulateGrad has written .grad (by
// backward(), not autograd.grad). Installing replaces the leaf's runner.
using PostAccumulateHook = std::function<void(const Tensor&)>;
void set_post_accumulate_hook(const Tensor& leaf, PostAccumulateHook run);
PostAccumulateHook* find_post_accumulate_hook(const Tensor& leaf);
void run_post_accumulate_hook(const Tensor& leaf);
// Drops every runner: the interpreter whose functions they call is going away.
void clear_grad_hooks();

}  // namespace kiln

# torch.nn.utils: gradient clipping and flattening parameters to a vector,
# as PyTorch 1.13/2.x compute them (the total norm is the norm of the
# per-gradient norms; gradients are scaled by min(max_norm / (norm + 1e-6), 1)).

import math

import torch


def _tensor_list(parameters):
    if isinstance(parameters, torch.Tensor):
        return [parameters]
    return list(parameters)


def _norm(t, norm_type):
    # ||t||_p of all elements, p finite and nonzero.
    if norm_type == 2.0:
        return (t * t).sum().sqrt()
    if norm_type == 1.0:
        return t.abs().sum()
    return t.abs().pow(norm_type).sum().pow(1.0 / norm_type)


# The norm of the per-tensor norms: the total norm of all the tensors' elements together.
def get_total_norm(tensors, norm_type=2.0, error_if_nonfinite=False, foreach=None):
    tensors = [t for t in _tensor_list(tensors) if t is not None]
    norm_type = float(norm_type)
    if len(tensors) == 0:
        return torch.tensor(0.0)
    with torch.no_grad():
        if norm_type == math.inf:
            norms = [t.detach().abs().max() for t in tensors]
            total_norm = norms[0] if len(norms) == 1 else torch.stack(norms).max()
        elif norm_type == -math.inf:
            norms = [t.detach().abs().min() for t in tensors]
            total_norm = norms[0] if len(norms) == 1 else torch.stack(norms).min()
        else:
            total_norm = _norm(torch.stack([_norm(t.detach(), norm_type) for t in tensors]), norm_type)
    if error_if_nonfinite and not math.isfinite(total_norm.item()):
        raise RuntimeError('The total norm of order ' + str(norm_type) + ' for gradients from '
                           '`parameters` is non-finite, so it cannot be clipped. To disable this error and '
                           'scale the gradients by the non-finite norm anyway, set '
                           '`error_if_nonfinite=False`')
    return total_norm


# Scales the gradients by min(max_norm / (total_norm + 1e-6), 1), total_norm given.
def clip_grads_with_norm_(parameters, max_norm, total_norm, foreach=None):
    grads = [p.grad for p in _tensor_list(parameters) if p.grad is not None]
    if len(grads) == 0:
        return
    with torch.no_grad():
        clip_coef = float(max_norm) / (total_norm + 1e-6)
        clip_coef_clamped = torch.clamp(clip_coef, max=1.0)
        for g in grads:
            g.mul_(clip_coef_clamped)


def clip_grad_norm_(parameters, max_norm, norm_type=2.0, error_if_nonfinite=False, foreach=None):
    parameters = _tensor_list(parameters)
    grads = [p.grad for p in parameters if p.grad is not None]
    total_norm = get_total_norm(grads, norm_type, error_if_nonfinite, foreach)
    clip_grads_with_norm_(parameters, max_norm, total_norm, foreach)
    return total_norm


def clip_grad_value_(parameters, clip_value, foreach=None):
    clip_value = float(clip_value)
    with torch.no_grad():
        for p in _tensor_list(parameters):
            if p.grad is not None:
                p.grad.clamp_(min=-clip_value, max=clip_value)


def parameters_to_vector(parameters):
    return torch.cat([p.view(-1) for p in parameters])


def vector_to_parameters(vec, parameters):
    if not isinstance(vec, torch.Tensor):
        raise TypeError('expected torch.Tensor, but got: {}'.format(type(vec).__name__))
    pointer = 0
    with torch.no_grad():
        for param in parameters:
            num_param = param.numel()
            param.copy_(vec[pointer:pointer + num_param].view(param.shape))
            pointer += num_param


# ---- weight_norm / spectral_norm (the hook-based torch.nn.utils forms) --------------------------

# ||v|| over every dim but `dim`, shaped to broadcast against v (dim=None: over all of v).
def _norm_except_dim(v, dim):
    if dim is None or dim == -1 and v.dim() == 0:
        return v.norm()
    if dim < 0:
        dim += v.dim()
    shape = [1] * v.dim()
    shape[dim] = v.size(dim)
    return v.transpose(0, dim).reshape(v.size(dim), -1).norm(dim=1).reshape(shape)


def weight_norm(module, name='weight', dim=0):
    # weight = g * v / ||v||, with g and v the parameters <name>_g and <name>_v; recomputed before
    # every forward.
    weight = getattr(module, name)
    del module._parameters[name]
    object.__delattr__(module, name)
    module.register_parameter(name + '_g', torch.nn.Parameter(_norm_except_dim(weight, dim).detach()))
    module.register_parameter(name + '_v', torch.nn.Parameter(weight.detach()))

    def compute(mod, inputs):
        v = getattr(mod, name + '_v')
        w = v * (getattr(mod, name + '_g') / _norm_except_dim(v, dim))
        if dim is not None and (dim == 0 or dim == v.dim() - 1):
            w = torch._C._set_grad_fn_name(w, 'WeightNormInterfaceBackward0')  # PyTorch's fused kernel
        object.__setattr__(mod, name, w)

    compute(module, None)
    module._weight_norm_hook = module.register_forward_pre_hook(compute)
    return module


def remove_weight_norm(module, name='weight'):
    handle = getattr(module, '_weight_norm_hook', None)
    if handle is None:
        raise ValueError("weight_norm of '{}' not found in {}".format(name, module))
    handle.remove()
    weight = getattr(module, name).detach()
    del module._parameters[name + '_g']
    del module._parameters[name + '_v']
    object.__delattr__(module, name + '_g')
    object.__delattr__(module, name + '_v')
    object.__delattr__(module, name)
    module.register_parameter(name, torch.nn.Parameter(weight))
    return module


def spectral_norm(module, name='weight', n_power_iterations=1, eps=1e-12, dim=None):
    # weight = weight_orig / sigma, sigma estimated by power iteration on the weight as a matrix
    # (dim first); u and v are buffers, advanced once per forward in training mode, as PyTorch's.
    if n_power_iterations <= 0:
        raise ValueError('Expected n_power_iterations to be positive, but got n_power_iterations={}'.format(
            n_power_iterations))
    if dim is None:
        dim = 1 if type(module).__name__ in ('ConvTranspose1d', 'ConvTranspose2d', 'ConvTranspose3d') else 0
    weight = getattr(module, name)

    def as_matrix(w):
        if dim != 0:
            w = w.permute([dim] + [d for d in range(w.dim()) if d != dim])
        return w.reshape(w.size(0), -1)

    with torch.no_grad():
        mat = as_matrix(weight)
        h, w = mat.size(0), mat.size(1)
        u = torch.nn.functional.normalize(weight.new_empty(h).normal_(0, 1), dim=0, eps=eps)
        v = torch.nn.functional.normalize(weight.new_empty(w).normal_(0, 1), dim=0, eps=eps)
    del module._parameters[name]
    object.__delattr__(module, name)
    module.register_parameter(name + '_orig', weight)
    object.__setattr__(module, name, weight.detach())
    module.register_buffer(name + '_u', u)
    module.register_buffer(name + '_v', v)

    def compute(mod, inputs):
        w_orig = getattr(mod, name + '_orig')
        u = getattr(mod, name + '_u')
        v = getattr(mod, name + '_v')
        mat = as_matrix(w_orig)
        if mod.training:
            with torch.no_grad():
                for _ in range(n_power_iterations):
                    v.copy_(torch.nn.functional.normalize(torch.mv(mat.t(), u), dim=0, eps=eps))
                    u.copy_(torch.nn.functional.normalize(torch.mv(mat, v), dim=0, eps=eps))
                u = u.clone()
                v = v.clone()
        sigma = torch.dot(u, torch.mv(mat, v))
        object.__setattr__(mod, name, w_orig / sigma)

    module._spectral_norm_hook = module.register_forward_pre_hook(compute)
    return module

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


def clip_grad_norm_(parameters, max_norm, norm_type=2.0, error_if_nonfinite=False, foreach=None):
    grads = [p.grad for p in _tensor_list(parameters) if p.grad is not None]
    max_norm = float(max_norm)
    norm_type = float(norm_type)
    if len(grads) == 0:
        return torch.tensor(0.0)
    with torch.no_grad():
        if norm_type == math.inf:
            norms = [g.detach().abs().max() for g in grads]
            total_norm = norms[0] if len(norms) == 1 else torch.stack(norms).max()
        elif norm_type == -math.inf:
            norms = [g.detach().abs().min() for g in grads]
            total_norm = norms[0] if len(norms) == 1 else torch.stack(norms).min()
        else:
            total_norm = _norm(torch.stack([_norm(g.detach(), norm_type) for g in grads]), norm_type)
        if error_if_nonfinite and not math.isfinite(total_norm.item()):
            raise RuntimeError('The total norm of order ' + str(norm_type) + ' for gradients from '
                               '`parameters` is non-finite, so it cannot be clipped. To disable this error and '
                               'scale the gradients by the non-finite norm anyway, set '
                               '`error_if_nonfinite=False`')
        clip_coef = max_norm / (total_norm + 1e-6)
        clip_coef_clamped = torch.clamp(clip_coef, max=1.0)
        for g in grads:
            g.mul_(clip_coef_clamped)
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

# torch.optim, written in Kiln's Python subset and run at interpreter
# start-up as the module "torch.optim". The update
# formulas are PyTorch's single-tensor ("foreach off") ones, step for step,
# so trajectories agree with PyTorch to float rounding. They use PyTorch's ops
# too (lerp_, addcmul_, addcdiv_): each rounds differently from an add_ of a
# product or quotient (value * t1 / t2 is not value * (t1 / t2) in float32).

import math

import torch


# torch.typename of a non-tensor: its class, qualified by its module unless a builtin.
def _typename(obj):
    cls = type(obj)
    module = getattr(cls, '__module__', 'builtins')
    return cls.__name__ if module in (None, 'builtins') else module + '.' + cls.__name__


class Optimizer:
    def __init__(self, params, defaults):
        self.defaults = defaults
        self.param_groups = []
        self.state = {}  # parameter -> its state dict, for those a step has touched (as PyTorch's)
        self._group_states = []  # per group, per parameter: that parameter's state dict
        self._step_counts = {}  # parameter -> (its state['step'] tensor, that step as an int)
        if isinstance(params, dict):
            raise TypeError('params argument given to the optimizer should be an iterable of Tensors or dicts, '
                            'but got dict')
        groups = list(params)
        if len(groups) == 0:
            raise ValueError('optimizer got an empty parameter list')
        if not isinstance(groups[0], dict):
            groups = [{'params': groups}]
        for group in groups:
            self.add_param_group(group)

    def add_param_group(self, param_group):
        group = {}
        params = param_group['params']
        if isinstance(params, torch.Tensor):
            group['params'] = [params]
        elif isinstance(params, set):
            raise TypeError('optimizer parameters need to be organized in ordered collections, but the ordering '
                            'of tensors in sets will change between runs. Please use a list instead.')
        else:
            group['params'] = list(params)
        for p in group['params']:
            if not isinstance(p, torch.Tensor):
                raise TypeError('optimizer can only optimize Tensors, but one of the params is ' + _typename(p))
            if not self.defaults.get('differentiable', None) and not (p.is_leaf or p.retains_grad):
                raise ValueError("can't optimize a non-leaf Tensor")
        for key, value in param_group.items():
            if key != 'params':
                group[key] = value
        for key, value in self.defaults.items():
            group.setdefault(key, value)
        # A parameter may sit in one group only.
        seen = set()
        for other in self.param_groups:
            for p in other['params']:
                seen.add(id(p))
        for p in group['params']:
            if id(p) in seen:
                raise ValueError('some parameters appear in more than one parameter group')
        self.param_groups.append(group)
        self._group_states.append([{} for _ in group['params']])

    def zero_grad(self, set_to_none=True):
        for group in self.param_groups:
            for p in group['params']:
                if p.grad is not None:
                    if set_to_none:
                        p.grad = None
                    else:
                        with torch.no_grad():
                            p.grad.zero_()

    def step(self, closure=None):
        raise NotImplementedError


    # PyTorch's layout: parameters are numbered across the groups in order, and
    # 'state' maps the number of each parameter that has state to that state.
    def state_dict(self):
        groups = []
        state = {}
        index = 0
        for group, states in zip(self.param_groups, self._group_states):
            packed = {k: v for k, v in group.items() if k != 'params'}
            packed['params'] = list(range(index, index + len(group['params'])))
            groups.append(packed)
            for i, st in enumerate(states):
                if len(st) > 0:
                    state[index + i] = st
            index += len(group['params'])
        return {'state': state, 'param_groups': groups}

    def load_state_dict(self, state_dict):
        saved_groups = state_dict['param_groups']
        if len(saved_groups) != len(self.param_groups):
            raise ValueError('loaded state dict has a different number of parameter groups')
        for group, saved in zip(self.param_groups, saved_groups):
            if len(group['params']) != len(saved['params']):
                raise ValueError("loaded state dict contains a parameter group that doesn't match the size of "
                                 "optimizer's group")
        saved_state = state_dict['state']
        self.state = {}
        for g, (group, saved) in enumerate(zip(self.param_groups, saved_groups)):
            for key, value in saved.items():
                if key != 'params':
                    group[key] = value
            states = []
            for i, p in enumerate(group['params']):
                st = {}
                if saved['params'][i] in saved_state:
                    # As PyTorch 2.x: tensors are taken, not copied, cast to the parameter's
                    # float dtype where they differ ('step' stays float32).
                    for key, value in saved_state[saved['params'][i]].items():
                        st[key] = value if key == 'step' else _cast_state(value, p)
                states.append(st)
                if len(st) > 0:
                    self.state[p] = st
            self._group_states[g] = states

    def __repr__(self):
        # Each group's lines end in a newline, so a blank line parts groups.
        text = type(self).__name__ + ' ('
        for i, group in enumerate(self.param_groups):
            text += '\nParameter Group {}\n'.format(i)
            for key in sorted(group.keys()):
                if key != 'params':
                    text += '    {}: {}\n'.format(key, group[key])
        return text + ')'


# A loaded state value as PyTorch takes it: float tensors cast to the parameter's dtype, lists,
# tuples and dicts rebuilt around their (cast) items, so the loaded state shares no container.
def _cast_state(value, p):
    if isinstance(value, torch.Tensor):
        if value.is_floating_point() and value.dtype != p.dtype:
            return value.to(p.dtype)
        return value
    if isinstance(value, list):
        return [_cast_state(v, p) for v in value]
    if isinstance(value, tuple):
        return tuple(_cast_state(v, p) for v in value)
    if isinstance(value, dict):
        return {k: _cast_state(v, p) for k, v in value.items()}
    return value


def _check_lr(lr):
    if lr < 0.0:
        raise ValueError('Invalid learning rate: {}'.format(lr))


class SGD(Optimizer):
    def __init__(self, params, lr=1e-3, momentum=0, dampening=0, weight_decay=0, nesterov=False, maximize=False,
                 foreach=None, differentiable=False, fused=None):
        _check_lr(lr)
        if momentum < 0.0:
            raise ValueError('Invalid momentum value: {}'.format(momentum))
        if weight_decay < 0.0:
            raise ValueError('Invalid weight_decay value: {}'.format(weight_decay))
        defaults = {'lr': lr, 'momentum': momentum, 'dampening': dampening, 'weight_decay': weight_decay,
                    'nesterov': nesterov, 'maximize': maximize, 'foreach': foreach,
                    'differentiable': differentiable, 'fused': fused}
        if nesterov and (momentum <= 0 or dampening != 0):
            raise ValueError('Nesterov momentum requires a momentum and zero dampening')
        super().__init__(params, defaults)

    def step(self, closure=None):
        loss = None
        if closure is not None:
            loss = closure()
        with torch.no_grad():
            for group, states in zip(self.param_groups, self._group_states):
                self._update_group(group, states)
        return loss

    def _update_group(self, group, states):
        lr = group['lr']
        momentum = group['momentum']
        dampening = group['dampening']
        weight_decay = group['weight_decay']
        for p, state in zip(group['params'], states):
            if p.grad is None:
                continue
            self.state[p] = state
            d_p = -p.grad if group['maximize'] else p.grad
            if weight_decay != 0:
                d_p = d_p.add(p, alpha=weight_decay)
            if momentum != 0:
                buf = state.get('momentum_buffer')
                if buf is None:
                    buf = d_p.clone().detach()
                    state['momentum_buffer'] = buf
                else:
                    buf.mul_(momentum).add_(d_p, alpha=1 - dampening)
                if group['nesterov']:
                    d_p = d_p.add(buf, alpha=momentum)
                else:
                    d_p = buf
            p.add_(d_p, alpha=-lr)


def _adam_update(p, grad, state, group, step):
    lr = group['lr']
    beta1, beta2 = group['betas']
    eps = group['eps']
    weight_decay = group['weight_decay']
    if 'exp_avg' not in state:
        state['exp_avg'] = torch.zeros_like(p)
        state['exp_avg_sq'] = torch.zeros_like(p)
        if group['amsgrad']:
            state['max_exp_avg_sq'] = torch.zeros_like(p)
    exp_avg = state['exp_avg']
    exp_avg_sq = state['exp_avg_sq']
    if group['decoupled_weight_decay']:
        p.mul_(1 - lr * weight_decay)
    elif weight_decay != 0:
        grad = grad.add(p, alpha=weight_decay)
    exp_avg.lerp_(grad, 1 - beta1)
    exp_avg_sq.mul_(beta2).addcmul_(grad, grad, value=1 - beta2)
    bias_correction1 = 1 - beta1 ** step
    bias_correction2 = 1 - beta2 ** step
    step_size = lr / bias_correction1
    bias_correction2_sqrt = math.sqrt(bias_correction2)
    if group['amsgrad']:
        max_sq = state['max_exp_avg_sq']
        max_sq.copy_(torch.maximum(max_sq, exp_avg_sq))
        denom = (max_sq.sqrt() / bias_correction2_sqrt).add_(eps)
    else:
        denom = (exp_avg_sq.sqrt() / bias_correction2_sqrt).add_(eps)
    p.addcdiv_(exp_avg, denom, value=-step_size)


def _check_adam_args(lr, betas, eps, weight_decay):
    _check_lr(lr)
    if eps < 0.0:
        raise ValueError('Invalid epsilon value: {}'.format(eps))
    if not 0.0 <= betas[0] < 1.0:
        raise ValueError('Invalid beta parameter at index 0: {}'.format(betas[0]))
    if not 0.0 <= betas[1] < 1.0:
        raise ValueError('Invalid beta parameter at index 1: {}'.format(betas[1]))
    if weight_decay < 0.0:
        raise ValueError('Invalid weight_decay value: {}'.format(weight_decay))


class Adam(Optimizer):
    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0, amsgrad=False,
                 maximize=False, foreach=None, capturable=False, differentiable=False, fused=None,
                 decoupled_weight_decay=False):
        _check_adam_args(lr, betas, eps, weight_decay)
        defaults = {'lr': lr, 'betas': betas, 'eps': eps, 'weight_decay': weight_decay, 'amsgrad': amsgrad,
                    'maximize': maximize, 'foreach': foreach, 'capturable': capturable,
                    'differentiable': differentiable, 'fused': fused,
                    'decoupled_weight_decay': decoupled_weight_decay}
        super().__init__(params, defaults)

    def step(self, closure=None):
        return _step_all(self, closure, _adam_update)


class AdamW(Adam):
    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=1e-2, amsgrad=False,
                 maximize=False, foreach=None, capturable=False, differentiable=False, fused=None):
        super().__init__(params, lr, betas, eps, weight_decay, amsgrad, maximize, foreach, capturable,
                         differentiable, fused, decoupled_weight_decay=True)


def _check_nonneg(name, value):
    if value < 0.0:
        raise ValueError('Invalid {} value: {}'.format(name, value))


# One step of an optimizer with a step count. PyTorch 2.x keeps state['step'] as a float32
# tensor; the formulas need it as a number, and reading a tensor is a graph break in the JIT, so
# the count is kept beside the tensor (optimizer._step_counts) and the tensor is read only when
# it was replaced (load_state_dict, a user's assignment). Inline here, not a helper function: a
# helper would turn hot on its own and add a region.
def _step_all(optimizer, closure, update):
    loss = None
    if closure is not None:
        loss = closure()
    counts = optimizer._step_counts
    with torch.no_grad():
        for group, states in zip(optimizer.param_groups, optimizer._group_states):
            for p, state in zip(group['params'], states):
                if p.grad is not None:
                    optimizer.state[p] = state
                    step_t = state.get('step')
                    kept = counts.get(p)
                    if step_t is None:
                        step_t = torch.tensor(0.0)
                        state['step'] = step_t
                        count = 0
                    elif kept is not None and kept[0] is step_t:
                        count = kept[1]
                    else:
                        count = int(float(step_t))
                        if not isinstance(step_t, torch.Tensor):
                            step_t = torch.tensor(float(count))
                            state['step'] = step_t
                    step_t.add_(1)
                    counts[p] = (step_t, count + 1)
                    update(p, -p.grad if group['maximize'] else p.grad, state, group, count + 1)
    return loss


def _rmsprop_update(p, grad, state, group, step):
    alpha = group['alpha']
    if 'square_avg' not in state:
        state['square_avg'] = torch.zeros_like(p)
        if group['momentum'] > 0:
            state['momentum_buffer'] = torch.zeros_like(p)
        if group['centered']:
            state['grad_avg'] = torch.zeros_like(p)
    if group['weight_decay'] != 0:
        grad = grad.add(p, alpha=group['weight_decay'])
    square_avg = state['square_avg']
    square_avg.mul_(alpha).addcmul_(grad, grad, value=1 - alpha)
    if group['centered']:
        grad_avg = state['grad_avg']
        grad_avg.lerp_(grad, 1 - alpha)
        avg = square_avg.addcmul(grad_avg, grad_avg, value=-1).sqrt_()
    else:
        avg = square_avg.sqrt()
    avg = avg.add_(group['eps'])
    if group['momentum'] > 0:
        buf = state['momentum_buffer']
        buf.mul_(group['momentum']).addcdiv_(grad, avg)
        p.add_(buf, alpha=-group['lr'])
    else:
        p.addcdiv_(grad, avg, value=-group['lr'])


class RMSprop(Optimizer):
    def __init__(self, params, lr=1e-2, alpha=0.99, eps=1e-8, weight_decay=0, momentum=0, centered=False,
                 capturable=False, foreach=None, maximize=False, differentiable=False):
        _check_lr(lr)
        _check_nonneg('epsilon', eps)
        _check_nonneg('momentum', momentum)
        _check_nonneg('weight_decay', weight_decay)
        _check_nonneg('alpha', alpha)
        defaults = {'lr': lr, 'momentum': momentum, 'alpha': alpha, 'eps': eps, 'centered': centered,
                    'weight_decay': weight_decay, 'capturable': capturable, 'foreach': foreach,
                    'maximize': maximize, 'differentiable': differentiable}
        super().__init__(params, defaults)

    def step(self, closure=None):
        return _step_all(self, closure, _rmsprop_update)


def _adagrad_update(p, grad, state, group, step):
    if group['weight_decay'] != 0:
        grad = grad.add(p, alpha=group['weight_decay'])
    clr = group['lr'] / (1 + (step - 1) * group['lr_decay'])
    state_sum = state['sum']
    state_sum.addcmul_(grad, grad, value=1)
    std = state_sum.sqrt().add_(group['eps'])
    p.addcdiv_(grad, std, value=-clr)


class Adagrad(Optimizer):
    def __init__(self, params, lr=1e-2, lr_decay=0, weight_decay=0, initial_accumulator_value=0, eps=1e-10,
                 foreach=None, maximize=False, differentiable=False, fused=None):
        _check_lr(lr)
        _check_nonneg('lr_decay', lr_decay)
        _check_nonneg('weight_decay', weight_decay)
        _check_nonneg('initial_accumulator_value', initial_accumulator_value)
        _check_nonneg('epsilon', eps)
        defaults = {'lr': lr, 'lr_decay': lr_decay, 'eps': eps, 'weight_decay': weight_decay,
                    'initial_accumulator_value': initial_accumulator_value, 'foreach': foreach,
                    'maximize': maximize, 'differentiable': differentiable, 'fused': fused}
        super().__init__(params, defaults)
        # As PyTorch's, Adagrad's state exists from the start.
        for group, states in zip(self.param_groups, self._group_states):
            for p, state in zip(group['params'], states):
                state['step'] = torch.tensor(0.0)
                state['sum'] = torch.full_like(p, group['initial_accumulator_value'])
                self.state[p] = state

    def step(self, closure=None):
        return _step_all(self, closure, _adagrad_update)


def _adadelta_update(p, grad, state, group, step):
    rho = group['rho']
    eps = group['eps']
    if 'square_avg' not in state:
        state['square_avg'] = torch.zeros_like(p)
        state['acc_delta'] = torch.zeros_like(p)
    if group['weight_decay'] != 0:
        grad = grad.add(p, alpha=group['weight_decay'])
    square_avg = state['square_avg']
    acc_delta = state['acc_delta']
    square_avg.mul_(rho).addcmul_(grad, grad, value=1 - rho)
    std = square_avg.add(eps).sqrt_()
    delta = acc_delta.add(eps).sqrt_().div_(std).mul_(grad)
    acc_delta.mul_(rho).addcmul_(delta, delta, value=1 - rho)
    p.add_(delta, alpha=-group['lr'])


class Adadelta(Optimizer):
    def __init__(self, params, lr=1.0, rho=0.9, eps=1e-6, weight_decay=0, foreach=None, capturable=False,
                 maximize=False, differentiable=False):
        _check_lr(lr)
        if not 0.0 <= rho <= 1.0:
            raise ValueError('Invalid rho value: {}'.format(rho))
        _check_nonneg('epsilon', eps)
        _check_nonneg('weight_decay', weight_decay)
        defaults = {'lr': lr, 'rho': rho, 'eps': eps, 'weight_decay': weight_decay, 'maximize': maximize,
                    'capturable': capturable, 'foreach': foreach, 'differentiable': differentiable}
        super().__init__(params, defaults)

    def step(self, closure=None):
        return _step_all(self, closure, _adadelta_update)


# The first moment of Adamax, NAdam and RAdam: PyTorch's exp_avg.lerp_(grad, 1 - beta1).
def _first_moment(state, grad, beta1):
    exp_avg = state['exp_avg']
    exp_avg.lerp_(grad, 1 - beta1)
    return exp_avg


def _moments_init(p, state, second):
    if 'exp_avg' not in state:
        state['exp_avg'] = torch.zeros_like(p)
        state[second] = torch.zeros_like(p)


def _adamax_update(p, grad, state, group, step):
    beta1, beta2 = group['betas']
    _moments_init(p, state, 'exp_inf')
    if group['weight_decay'] != 0:
        grad = grad.add(p, alpha=group['weight_decay'])
    exp_avg = _first_moment(state, grad, beta1)
    exp_inf = state['exp_inf']
    exp_inf.copy_(torch.maximum(exp_inf.mul_(beta2), grad.abs().add_(group['eps'])))
    clr = group['lr'] / (1 - beta1 ** step)
    p.addcdiv_(exp_avg, exp_inf, value=-clr)


class Adamax(Optimizer):
    def __init__(self, params, lr=2e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0, foreach=None,
                 maximize=False, differentiable=False, capturable=False):
        _check_adam_args(lr, betas, eps, weight_decay)
        defaults = {'lr': lr, 'betas': betas, 'eps': eps, 'weight_decay': weight_decay, 'foreach': foreach,
                    'maximize': maximize, 'differentiable': differentiable, 'capturable': capturable}
        super().__init__(params, defaults)

    def step(self, closure=None):
        return _step_all(self, closure, _adamax_update)


def _decay(p, grad, group):
    wd = group['weight_decay']
    if wd == 0:
        return grad
    if group['decoupled_weight_decay']:
        p.mul_(1 - group['lr'] * wd)
        return grad
    return grad.add(p, alpha=wd)


_mu_products = {}  # id of a NAdam mu_product tensor -> (that tensor, its value as a float)


# x rounded to the nearest float32 (ties to even), for normal magnitudes.
def _round_f32(x):
    if x == 0.0:
        return x
    e = math.floor(math.log2(abs(x))) + 1  # 2^(e-1) <= |x| < 2^e, log2's rounding corrected below
    while abs(x) >= 2.0 ** e:
        e += 1
    while abs(x) < 2.0 ** (e - 1):
        e -= 1
    ulp = 2.0 ** (e - 24)
    return round(x / ulp) * ulp


def _nadam_update(p, grad, state, group, step):
    beta1, beta2 = group['betas']
    lr = group['lr']
    if 'mu_product' not in state:
        # A float32 tensor, as PyTorch keeps it: its rounding at each step shows in the update.
        state['mu_product'] = torch.ones(())
    _moments_init(p, state, 'exp_avg_sq')
    bias_correction2 = 1 - beta2 ** step
    grad = _decay(p, grad, group)
    mu = beta1 * (1.0 - 0.5 * (0.96 ** (step * group['momentum_decay'])))
    mu_next = beta1 * (1.0 - 0.5 * (0.96 ** ((step + 1) * group['momentum_decay'])))
    # The float32 product as a number without reading the tensor (a read is a graph break in the
    # JIT): a float kept beside it, read back only when the tensor was replaced (load_state_dict).
    prod_t = state['mu_product']
    kept = _mu_products.get(id(prod_t))
    prev = kept[1] if kept is not None and kept[0] is prod_t else float(prod_t)
    prod_t.mul_(mu)
    mu_product = _round_f32(_round_f32(mu) * prev)
    _mu_products[id(prod_t)] = (prod_t, mu_product)
    exp_avg = _first_moment(state, grad, beta1)
    exp_avg_sq = state['exp_avg_sq']
    exp_avg_sq.mul_(beta2).addcmul_(grad, grad, value=1 - beta2)
    denom = exp_avg_sq.div(bias_correction2).sqrt().add_(group['eps'])
    p.addcdiv_(grad, denom, value=-lr * (1.0 - mu) / (1.0 - mu_product))
    p.addcdiv_(exp_avg, denom, value=(-lr * mu_next) / (1.0 - mu_product * mu_next))


class NAdam(Optimizer):
    def __init__(self, params, lr=2e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0, momentum_decay=4e-3,
                 decoupled_weight_decay=False, foreach=None, maximize=False, capturable=False,
                 differentiable=False):
        _check_adam_args(lr, betas, eps, weight_decay)
        _check_nonneg('momentum_decay', momentum_decay)
        defaults = {'lr': lr, 'betas': betas, 'eps': eps, 'weight_decay': weight_decay,
                    'momentum_decay': momentum_decay, 'decoupled_weight_decay': decoupled_weight_decay,
                    'maximize': maximize, 'foreach': foreach, 'capturable': capturable,
                    'differentiable': differentiable}
        super().__init__(params, defaults)

    def step(self, closure=None):
        return _step_all(self, closure, _nadam_update)


def _radam_update(p, grad, state, group, step):
    beta1, beta2 = group['betas']
    lr = group['lr']
    _moments_init(p, state, 'exp_avg_sq')
    grad = _decay(p, grad, group)
    exp_avg = _first_moment(state, grad, beta1)
    exp_avg_sq = state['exp_avg_sq']
    exp_avg_sq.mul_(beta2).addcmul_(grad, grad, value=1 - beta2)
    bias_correction1 = 1 - beta1 ** step
    bias_correction2 = 1 - beta2 ** step
    corrected = exp_avg / bias_correction1
    rho_inf = 2 / (1 - beta2) - 1
    rho_t = rho_inf - 2 * step * (beta2 ** step) / bias_correction2
    if rho_t > 5.0:
        rect = ((rho_t - 4) * (rho_t - 2) * rho_inf / ((rho_inf - 4) * (rho_inf - 2) * rho_t)) ** 0.5
        adaptive_lr = (bias_correction2 ** 0.5) / exp_avg_sq.sqrt().add_(group['eps'])
        p.add_(corrected * lr * adaptive_lr * rect, alpha=-1.0)
    else:
        p.add_(corrected * lr, alpha=-1.0)


class RAdam(Optimizer):
    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0,
                 decoupled_weight_decay=False, foreach=None, maximize=False, capturable=False,
                 differentiable=False):
        _check_adam_args(lr, betas, eps, weight_decay)
        defaults = {'lr': lr, 'betas': betas, 'eps': eps, 'weight_decay': weight_decay,
                    'maximize': maximize, 'foreach': foreach, 'capturable': capturable,
                    'decoupled_weight_decay': decoupled_weight_decay, 'differentiable': differentiable}
        super().__init__(params, defaults)

    def step(self, closure=None):
        return _step_all(self, closure, _radam_update)


# ASGD keeps eta (the step size) and mu (the averaging weight) as float32
# tensors, as PyTorch does: the update reads them back as numbers, so their
# float32 rounding shows in the parameters as it does there.
def _asgd_update(p, grad, state, group, step):
    if 'eta' not in state:
        state['eta'] = torch.tensor(float(group['lr']))
        state['mu'] = torch.ones(())
        state['ax'] = torch.zeros_like(p)
    if group['weight_decay'] != 0:
        grad = grad.add(p, alpha=group['weight_decay'])
    eta = state['eta'].item()
    p.mul_(1 - group['lambd'] * eta)
    p.add_(grad, alpha=-eta)
    if state['mu'].item() != 1:
        state['ax'].add_(p.sub(state['ax']).mul_(state['mu']))
    else:
        state['ax'].copy_(p)
    lr = group['lr']
    state['eta'].fill_(lr / ((1 + group['lambd'] * lr * step) ** group['alpha']))
    state['mu'].fill_(1 / max(1, step - group['t0']))


class ASGD(Optimizer):
    def __init__(self, params, lr=1e-2, lambd=1e-4, alpha=0.75, t0=1e6, weight_decay=0, foreach=None,
                 maximize=False, differentiable=False, capturable=False):
        _check_lr(lr)
        _check_nonneg('weight_decay', weight_decay)
        defaults = {'lr': lr, 'lambd': lambd, 'alpha': alpha, 't0': t0, 'weight_decay': weight_decay,
                    'foreach': foreach, 'maximize': maximize, 'differentiable': differentiable,
                    'capturable': capturable}
        super().__init__(params, defaults)

    def step(self, closure=None):
        return _step_all(self, closure, _asgd_update)


# Rprop: each element keeps its own step size, grown by etaplus while the gradient keeps its sign
# and shrunk by etaminus when it flips (that step then moves nothing, and the gradient remembered
# for the next comparison is zero). PyTorch's foreach and single-tensor forms give the same numbers.
def _rprop_update(p, grad, state, group, step):
    etaminus, etaplus = group['etas']
    lo, hi = group['step_sizes']
    if 'prev' not in state:
        state['prev'] = torch.zeros_like(p)
        state['step_size'] = torch.full_like(grad, group['lr'])
    prev = state['prev']
    step_size = state['step_size']
    sign = grad.mul(prev).sign()
    # +1 -> etaplus, -1 -> etaminus, 0 -> 1; a NaN product stays NaN.
    factor = torch.where(sign.gt(0), etaplus, torch.where(sign.lt(0), etaminus, torch.where(sign.eq(0), 1.0, sign)))
    step_size.mul_(factor).clamp_(lo, hi)
    grad = torch.where(factor.eq(etaminus), 0.0, grad)
    p.add_(grad.sign() * step_size, alpha=-1)
    prev.copy_(grad)


class Rprop(Optimizer):
    def __init__(self, params, lr=1e-2, etas=(0.5, 1.2), step_sizes=(1e-6, 50), capturable=False, foreach=None,
                 maximize=False, differentiable=False):
        _check_lr(lr)
        if not 0.0 < etas[0] < 1.0 < etas[1]:
            raise ValueError('Invalid eta values: {}, {}'.format(etas[0], etas[1]))
        defaults = {'lr': lr, 'etas': etas, 'step_sizes': step_sizes, 'foreach': foreach, 'maximize': maximize,
                    'differentiable': differentiable, 'capturable': capturable}
        super().__init__(params, defaults)

    def step(self, closure=None):
        return _step_all(self, closure, _rprop_update)

# torch.optim.swa_utils: weight averaging (SWA, EMA) of a model's parameters, the SWA learning
# rate schedule, and recomputing batch-norm statistics for the averaged weights.

import itertools
import math
from copy import deepcopy

import torch
import torch.nn as nn
from torch.optim.lr_scheduler import LRScheduler


def _check_decay(decay):
    if decay < 0.0 or decay > 1.0:
        raise ValueError('Invalid decay value {} provided. Please provide a value in [0,1] range.'.format(decay))


# The multi_avg_fn forms update the averaged tensors in place (PyTorch's foreach kernels); the
# avg_fn forms return the new average of one tensor.
def get_ema_multi_avg_fn(decay=0.999):
    _check_decay(decay)

    def ema_update(ema_param_list, current_param_list, _):
        with torch.no_grad():
            if ema_param_list[0].is_floating_point() or ema_param_list[0].is_complex():
                for p_ema, p_model in zip(ema_param_list, current_param_list):
                    p_ema.lerp_(p_model, 1 - decay)
            else:
                for p_ema, p_model in zip(ema_param_list, current_param_list):
                    p_ema.copy_(p_ema * decay + p_model * (1 - decay))

    return ema_update


def get_swa_multi_avg_fn():
    def swa_update(averaged_param_list, current_param_list, num_averaged):
        with torch.no_grad():
            if averaged_param_list[0].is_floating_point() or averaged_param_list[0].is_complex():
                weight = 1 / (num_averaged + 1)
                for p_avg, p_model in zip(averaged_param_list, current_param_list):
                    p_avg.lerp_(p_model, weight)
            else:
                for p_avg, p_model in zip(averaged_param_list, current_param_list):
                    p_avg.add_((p_model - p_avg) / (num_averaged + 1))

    return swa_update


def get_ema_avg_fn(decay=0.999):
    _check_decay(decay)

    def ema_update(ema_param, current_param, num_averaged):
        with torch.no_grad():
            return decay * ema_param + (1 - decay) * current_param

    return ema_update


def get_swa_avg_fn():
    def swa_update(averaged_param, current_param, num_averaged):
        with torch.no_grad():
            return averaged_param + (current_param - averaged_param) / (num_averaged + 1)

    return swa_update


def _group_by_device_and_dtype(averaged, current):
    groups = {}
    for a, c in zip(averaged, current):
        key = (str(a.device), a.dtype)
        if key not in groups:
            groups[key] = ([], [])
        groups[key][0].append(a)
        groups[key][1].append(c)
    return groups


class AveragedModel(nn.Module):
    def __init__(self, model, device=None, avg_fn=None, multi_avg_fn=None, use_buffers=False):
        super().__init__()
        if avg_fn is not None and multi_avg_fn is not None:
            raise AssertionError('Only one of avg_fn and multi_avg_fn should be provided')
        self.module = deepcopy(model)
        if device is not None:
            self.module = self.module.to(device)
        self.register_buffer('n_averaged', torch.tensor(0, dtype=torch.long, device=device))
        self.avg_fn = avg_fn
        self.multi_avg_fn = multi_avg_fn
        self.use_buffers = use_buffers

    def forward(self, *args, **kwargs):
        return self.module(*args, **kwargs)

    def _averaged_tensors(self, model):
        if self.use_buffers:
            return (list(itertools.chain(self.module.parameters(), self.module.buffers())),
                    list(itertools.chain(model.parameters(), model.buffers())))
        return list(self.parameters()), list(model.parameters())

    def update_parameters(self, model):
        mine, theirs = self._averaged_tensors(model)
        averaged = []
        current = []
        first = bool(self.n_averaged == 0)
        for p_avg, p_model in zip(mine, theirs):
            p_model_ = p_model.detach().to(p_avg.device)
            averaged.append(p_avg.detach())
            current.append(p_model_)
            if first:
                p_avg.detach().copy_(p_model_)
        if self.n_averaged > 0:
            self._average(averaged, current)
        if not self.use_buffers:
            # Buffers are not averaged: they follow the model's.
            for b_swa, b_model in zip(self.module.buffers(), model.buffers()):
                b_swa.detach().copy_(b_model.detach().to(b_swa.device))
        self.n_averaged += 1

    def _average(self, averaged, current):
        if self.multi_avg_fn is None and self.avg_fn is not None:
            for p_avg, p_model in zip(averaged, current):
                n = self.n_averaged.to(p_avg.device)
                p_avg.detach().copy_(self.avg_fn(p_avg.detach(), p_model, n))
            return
        for key, lists in _group_by_device_and_dtype(averaged, current).items():
            device = lists[0][0].device
            n = self.n_averaged.to(device)
            if self.multi_avg_fn is not None:
                self.multi_avg_fn(lists[0], lists[1], n)
            else:
                # PyTorch's CPU form on every device (on CUDA it lerps instead: the same up to
                # rounding, except that integer buffers fail there).
                avg_fn = get_swa_avg_fn()
                for p_avg, p_model in zip(lists[0], lists[1]):
                    p_avg.copy_(avg_fn(p_avg, p_model, n))


def update_bn(loader, model, device=None):
    # One pass over the data in training mode with momentum None (a plain running average), so the
    # batch-norm statistics become those of the averaged weights.
    momenta = {}
    for module in model.modules():
        if isinstance(module, nn._BatchNorm):
            module.reset_running_stats()
            momenta[module] = module.momentum
    if not momenta:
        return
    was_training = model.training
    model.train()
    for module in momenta:
        module.momentum = None
    with torch.no_grad():
        for input in loader:
            if isinstance(input, list) or isinstance(input, tuple):
                input = input[0]
            if device is not None:
                input = input.to(device)
            model(input)
    for module in momenta:
        module.momentum = momenta[module]
    model.train(was_training)


class SWALR(LRScheduler):
    # Anneals each group's lr from its value to swa_lr over anneal_epochs steps, then holds it.
    def __init__(self, optimizer, swa_lr, anneal_epochs=10, anneal_strategy='cos', last_epoch=-1):
        if isinstance(swa_lr, list) or isinstance(swa_lr, tuple):
            if len(swa_lr) != len(optimizer.param_groups):
                raise ValueError('swa_lr must have the same length as optimizer.param_groups. swa_lr has {} '
                                 'values, param_groups has {}.'.format(len(swa_lr), len(optimizer.param_groups)))
            swa_lrs = list(swa_lr)
        else:
            swa_lrs = [swa_lr] * len(optimizer.param_groups)
        for lr, group in zip(swa_lrs, optimizer.param_groups):
            group['swa_lr'] = lr
        if anneal_strategy not in ['cos', 'linear']:
            raise ValueError("anneal_strategy must be one of 'cos' or 'linear', instead got {}".format(
                anneal_strategy))
        self._set_anneal_func(anneal_strategy)
        if not isinstance(anneal_epochs, int) or anneal_epochs < 0:
            raise ValueError('anneal_epochs must be equal or greater than 0, got {}'.format(anneal_epochs))
        self.anneal_epochs = anneal_epochs
        super().__init__(optimizer, last_epoch)

    @staticmethod
    def _linear_anneal(t):
        return t

    @staticmethod
    def _cosine_anneal(t):
        return (1 - math.cos(math.pi * t)) / 2

    def _set_anneal_func(self, anneal_strategy):
        self._anneal_strategy = anneal_strategy
        self.anneal_func = self._cosine_anneal if anneal_strategy == 'cos' else self._linear_anneal

    @staticmethod
    def _get_initial_lr(lr, swa_lr, alpha):
        if alpha == 1:
            return swa_lr
        return (lr - alpha * swa_lr) / (1 - alpha)

    def get_lr(self):
        # The group's lr is the previous step's blend; undo that blend to recover the starting lr,
        # then blend anew with this step's weight.
        step = self._step_count - 1
        if self.anneal_epochs == 0:
            step = max(1, step)
        prev_t = max(0, min(1, (step - 1) / max(1, self.anneal_epochs)))
        prev_alpha = self.anneal_func(prev_t)
        prev_lrs = [self._get_initial_lr(group['lr'], group['swa_lr'], prev_alpha)
                    for group in self.optimizer.param_groups]
        t = max(0, min(1, step / max(1, self.anneal_epochs)))
        alpha = self.anneal_func(t)
        return [group['swa_lr'] * alpha + lr * (1 - alpha) for group, lr in zip(self.optimizer.param_groups, prev_lrs)]

    def state_dict(self):
        return {key: value for key, value in self.__dict__.items() if key != 'optimizer' and key != 'anneal_func'}

    def load_state_dict(self, state_dict):
        for key, value in state_dict.items():
            setattr(self, key, value)
        self._set_anneal_func(self._anneal_strategy)


# torch.nn, written in Kiln's Python subset and run at interpreter start-up
# as the module "torch.nn". Parameter and the functional ops are native (torch._C and
# torch.nn.functional). Semantics follow PyTorch: registration order decides
# the order of parameters(), state_dict() and the printed repr, and every
# initializer draws from the generator with the same calls as PyTorch so
# that torch.manual_seed(s) gives PyTorch's numbers.
#
# Methods PyTorch writes as generators (parameters(), children(), ...)
# return iterators over lists built up front, so next(m.parameters()) works.

import math
import warnings
from _collections import OrderedDict

import torch
import torch.nn.functional as F
from torch._C import Parameter, _is_parameter


def _addindent(s, num_spaces):
    lines = s.split('\n')
    if len(lines) == 1:
        return s
    first = lines.pop(0)
    rest = [(num_spaces * ' ') + line for line in lines]
    return first + '\n' + '\n'.join(rest)


def _contains_obj(items, x):
    # Identity membership; tensors compare elementwise with ==, so `in` is wrong here.
    for y in items:
        if y is x:
            return True
    return False


class _IncompatibleKeys:
    def __init__(self, missing_keys, unexpected_keys):
        self.missing_keys = missing_keys
        self.unexpected_keys = unexpected_keys

    def __repr__(self):
        if not self.missing_keys and not self.unexpected_keys:
            return '<All keys matched successfully>'
        return '_IncompatibleKeys(missing_keys=' + repr(self.missing_keys) + \
            ', unexpected_keys=' + repr(self.unexpected_keys) + ')'

    def __str__(self):
        return self.__repr__()


class RemovableHandle:
    _next_id = [0]

    # extra_dict: the registries that mark the hook's options (Module's
    # _forward_hooks_with_kwargs, ...), which remove() clears as well.
    def __init__(self, hooks_dict, *, extra_dict=None):
        self.hooks_dict_ref = hooks_dict
        self.id = RemovableHandle._next_id[0]
        RemovableHandle._next_id[0] += 1
        if extra_dict is None:
            extra_dict = []
        elif isinstance(extra_dict, dict):
            extra_dict = [extra_dict]
        self.extra_dict_ref = tuple(extra_dict)

    def remove(self):
        self.hooks_dict_ref.pop(self.id, None)
        for d in self.extra_dict_ref:
            d.pop(self.id, None)

    def __enter__(self):
        return self

    def __exit__(self, type, value, tb):
        self.remove()


# Tensor.register_hook's Python half (core/lang/tensor_methods.cpp keeps one dict per tensor).
def _add_tensor_hook(hooks, hook):
    handle = RemovableHandle(hooks)
    hooks[handle.id] = hook
    return handle


def _run_tensor_hooks(hooks, grad):
    for hook in list(hooks.values()):
        result = hook(grad)
        if result is not None:
            grad = result
    return grad



# Tensor.register_post_accumulate_grad_hook's hooks, each called with the tensor (their results are ignored).
def _run_post_accumulate_hooks(hooks, tensor):
    for hook in list(hooks.values()):
        hook(tensor)


# The identity on a module's tensor inputs (or outputs) whose backward hands
# the gradients to `fn` (a _BackwardHook method), which calls the module's
# backward hooks and returns the gradients to pass on: PyTorch's
# torch.nn.modules._functions.BackwardHookFunction, whose node is
# BackwardHookFunctionBackward, with its grad_fn hooks run in backward.
class BackwardHookFunction(torch.autograd.Function):
    @staticmethod
    def forward(ctx, fn, *args):
        ctx.fn = fn
        ctx.inputs = args
        ctx.mark_non_differentiable(*[a for a in args if not a.requires_grad])
        # The node hooks PyTorch runs see None for outputs no gradient reached.
        ctx.set_materialize_grads(False)
        return args

    @staticmethod
    def backward(ctx, *grads):
        return (None,) + tuple(ctx.fn(ctx, grads))


# PyTorch's torch.utils.hooks.BackwardHook: the module's full backward hooks
# see (module, grad_input, grad_output), each a tuple over the positional
# arguments (outputs) with None where no tensor is; pre-hooks see
# (module, grad_output) first. Either may return replacements.
class _BackwardHook:
    def __init__(self, module, user_hooks, user_pre_hooks):
        self.user_hooks = user_hooks
        self.user_pre_hooks = user_pre_hooks
        self.module = module
        self.grad_outputs = None
        self.n_outputs = -1
        self.output_tensors_index = None
        self.n_inputs = -1
        self.input_tensors_index = None

    def _pack_with_none(self, indices, values, size):
        res = [None] * size
        for idx, val in zip(indices, values):
            res[idx] = val
        return tuple(res)

    def _unpack_none(self, indices, values):
        return tuple([values[idx] for idx in indices])

    def _apply_on_tensors(self, fn, args):
        tensors_idx = []
        tensors = []
        requires_grad = False
        for i, arg in enumerate(args):
            if isinstance(arg, torch.Tensor):
                tensors_idx.append(i)
                tensors.append(arg)
                requires_grad = requires_grad or arg.requires_grad
        if not (requires_grad and torch.is_grad_enabled()):
            return args, None
        new_tensors = BackwardHookFunction.apply(fn, *tensors)
        arg_list = list(args)
        for idx, val in zip(tensors_idx, new_tensors):
            arg_list[idx] = val
        return tuple(arg_list), tensors_idx

    # The gradients reaching the module's inputs. PyTorch's node hook sees
    # them after the Function's backward, which had the ones that never
    # arrived materialized as zeros.
    def _input_grads(self, ctx, grads):
        grads = tuple([torch.zeros_like(t) if g is None else g for g, t in zip(grads, ctx.inputs)])
        if self.grad_outputs is None:
            # The gradient reached the inputs without passing the outputs (double backward).
            return grads
        res = self._pack_with_none(self.input_tensors_index, grads, self.n_inputs)
        for hook in self.user_hooks:
            out = hook(self.module, res, self.grad_outputs)
            if out is None:
                continue
            if len(out) != len(res):
                raise RuntimeError('Backward hook returned an invalid number of grad_input, got ' + str(len(out)) +
                                   ', but expected ' + str(len(res)))
            res = out
        self.grad_outputs = None
        return self._unpack_none(self.input_tensors_index, res)

    # The gradients arriving at the module's outputs, as they come (None for an unused one).
    def _output_grads(self, ctx, grads):
        self.grad_outputs = self._pack_with_none(self.output_tensors_index, grads, self.n_outputs)
        for pre_hook in self.user_pre_hooks:
            replaced = pre_hook(self.module, self.grad_outputs)
            if replaced is None:
                continue
            if len(replaced) != len(self.grad_outputs):
                raise RuntimeError('Backward pre hook returned an invalid number of grad_output, got ' +
                                   str(len(replaced)) + ', but expected ' + str(len(self.grad_outputs)))
            self.grad_outputs = replaced
        local_grad_outputs = self.grad_outputs
        if self.input_tensors_index is None:
            # No input requires grad: the hooks fire here, with no grad_input.
            if self.user_hooks:
                warnings.warn('Full backward hook is firing when gradients are computed with respect to module '
                              'outputs since no inputs require gradients. See https://docs.pytorch.org/docs/main/'
                              'generated/torch.nn.Module.html#torch.nn.Module.register_full_backward_hook for more '
                              'details.')
                grad_inputs = self._pack_with_none([], [], self.n_inputs)
                for user_hook in self.user_hooks:
                    res = user_hook(self.module, grad_inputs, self.grad_outputs)
                    if res is not None and not (isinstance(res, tuple) and all(el is None for el in res)):
                        raise RuntimeError('Backward hook for Modules where no input requires gradient should '
                                           'always return None or None for all gradients.')
            self.grad_outputs = None
        return tuple([local_grad_outputs[i] for i in self.output_tensors_index])

    def setup_input_hook(self, args):
        res, input_idx = self._apply_on_tensors(self._input_grads, args)
        self.n_inputs = len(args)
        self.input_tensors_index = input_idx
        return res

    def setup_output_hook(self, args):
        is_tuple = isinstance(args, tuple)
        if not is_tuple:
            args = (args,)
        res, output_idx = self._apply_on_tensors(self._output_grads, args)
        self.n_outputs = len(args)
        self.output_tensors_index = output_idx
        return res if is_tuple else res[0]


# torch.typename: a tensor by its legacy type ('torch.FloatTensor'), anything else by its class name.
def _typename(value):
    if isinstance(value, torch.Tensor):
        return value.type()
    return type(value).__name__

class Module:
    def __init__(self):
        object.__setattr__(self, 'training', True)
        object.__setattr__(self, '_parameters', {})
        object.__setattr__(self, '_buffers', {})
        object.__setattr__(self, '_modules', {})

    # Parameters, buffers and submodules are recorded in their registries and
    # also stored as plain attributes so that reading them is a dict lookup.
    def __setattr__(self, name, value):
        params = getattr(self, '_parameters', None)
        if _is_parameter(value):
            if params is None:
                raise AttributeError('cannot assign parameters before Module.__init__() call')
            self._modules.pop(name, None)
            self._buffers.pop(name, None)
            params[name] = value
        elif isinstance(value, Module):
            if params is None:
                raise AttributeError('cannot assign module before Module.__init__() call')
            params.pop(name, None)
            self._buffers.pop(name, None)
            self._modules[name] = value
        elif params is not None and name in params:
            if value is not None:
                raise TypeError("cannot assign '" + _typename(value) + "' as parameter '" + name +
                                "' (torch.nn.Parameter or None expected)")
            params[name] = None
        elif params is not None and name in self._modules:
            if value is not None:
                raise TypeError("cannot assign '" + _typename(value) + "' as child module '" + name +
                                "' (torch.nn.Module or None expected)")
            self._modules[name] = None
        elif params is not None and name in self._buffers:
            self._buffers[name] = value
        object.__setattr__(self, name, value)

    def __delattr__(self, name):
        if name in self._parameters:
            del self._parameters[name]
        elif name in self._buffers:
            del self._buffers[name]
            if name in self._non_persistent_names():
                self._non_persistent.remove(name)
        elif name in self._modules:
            del self._modules[name]
        object.__delattr__(self, name)

    _has_hooks = False

    def __call__(self, *args, **kwargs):
        if self._has_hooks:
            return self._call_with_hooks(args, kwargs)
        return self.forward(*args, **kwargs)

    # PyTorch's Module._call_impl: pre-hooks may replace the positional args
    # (with_kwargs: the args and kwargs), forward hooks the output; backward
    # hooks wrap the tensor inputs and outputs (_BackwardHook); always_call
    # hooks run even when forward raises.
    def _call_with_hooks(self, args, kwargs):
        for hook_id, hook in list(self._forward_pre_hooks.items()):
            if hook_id in self._forward_pre_hooks_with_kwargs:
                result = hook(self, args, kwargs)
                if result is not None:
                    if isinstance(result, tuple) and len(result) == 2:
                        args, kwargs = result
                    else:
                        raise RuntimeError('forward pre-hook must return None or a tuple of (new_args, new_kwargs), '
                                           'but got ' + str(result) + '.')
            else:
                result = hook(self, args)
                if result is not None:
                    args = result if isinstance(result, tuple) else (result,)
        bw_hook = None
        if self._backward_hooks or self._backward_pre_hooks:
            bw_hook = _BackwardHook(self, list(self._backward_hooks.values()),
                                    list(self._backward_pre_hooks.values()))
            args = bw_hook.setup_input_hook(args)
        output = None
        called_always = []
        try:
            output = self.forward(*args, **kwargs)
            for hook_id, hook in list(self._forward_hooks.items()):
                if hook_id in self._forward_hooks_always_called:
                    called_always.append(hook_id)
                output = self._run_forward_hook(hook_id, hook, args, kwargs, output)
        except Exception:
            for hook_id, hook in list(self._forward_hooks.items()):
                if hook_id in self._forward_hooks_always_called and hook_id not in called_always:
                    try:
                        output = self._run_forward_hook(hook_id, hook, args, kwargs, output)
                    except Exception as e:
                        warnings.warn('forward hook with ``always_call=True`` raised an exception that was '
                                      'silenced as another error was raised in forward: ' + str(e))
            raise
        if bw_hook is not None:
            if not isinstance(output, (torch.Tensor, tuple)):
                warnings.warn('For backward hooks to be called, module output should be a Tensor or a tuple of '
                              'Tensors but received ' + str(type(output)))
            output = bw_hook.setup_output_hook(output)
        return output

    def _run_forward_hook(self, hook_id, hook, args, kwargs, output):
        if hook_id in self._forward_hooks_with_kwargs:
            result = hook(self, args, kwargs, output)
        else:
            result = hook(self, args, output)
        return output if result is None else result

    def _add_hook(self, registry, hook, prepend, marks=()):
        if not self._has_hooks:
            # OrderedDicts as PyTorch's, which scripts print (prune's hooks, say).
            for name in ('_forward_pre_hooks', '_forward_pre_hooks_with_kwargs', '_forward_hooks',
                         '_forward_hooks_with_kwargs', '_forward_hooks_always_called', '_backward_pre_hooks',
                         '_backward_hooks'):
                object.__setattr__(self, name, OrderedDict())
            object.__setattr__(self, '_has_hooks', True)
        hooks = getattr(self, registry)
        extra = [getattr(self, m) for m in marks]
        handle = RemovableHandle(hooks, extra_dict=extra)
        for d in extra:
            d[handle.id] = True
        if prepend:
            items = list(hooks.items())
            hooks.clear()
            hooks[handle.id] = hook
            for k, v in items:
                hooks[k] = v
        else:
            hooks[handle.id] = hook
        return handle

    def register_forward_pre_hook(self, hook, *, prepend=False, with_kwargs=False):
        return self._add_hook('_forward_pre_hooks', hook, prepend,
                              ('_forward_pre_hooks_with_kwargs',) if with_kwargs else ())

    def register_forward_hook(self, hook, *, prepend=False, with_kwargs=False, always_call=False):
        marks = (('_forward_hooks_with_kwargs',) if with_kwargs else ()) + \
            (('_forward_hooks_always_called',) if always_call else ())
        return self._add_hook('_forward_hooks', hook, prepend, marks)

    def register_full_backward_pre_hook(self, hook, prepend=False):
        return self._add_hook('_backward_pre_hooks', hook, prepend)

    def register_full_backward_hook(self, hook, prepend=False):
        return self._add_hook('_backward_hooks', hook, prepend)

    def forward(self, *args, **kwargs):
        raise NotImplementedError('Module [' + type(self).__name__ + '] is missing the required "forward" function')

    def register_parameter(self, name, param):
        if not hasattr(self, '_parameters'):
            raise AttributeError('cannot assign parameter before Module.__init__() call')
        if '.' in name:
            raise KeyError('parameter name can\'t contain "."')
        if name == '':
            raise KeyError('parameter name can\'t be empty string ""')
        if param is not None and not _is_parameter(param):
            raise TypeError("cannot assign '" + type(param).__name__ + "' object to parameter '" + name +
                            "' (torch.nn.Parameter or None required)")
        self._parameters[name] = param
        object.__setattr__(self, name, param)

    def register_buffer(self, name, tensor, persistent=True):
        if not hasattr(self, '_buffers'):
            raise AttributeError('cannot assign buffer before Module.__init__() call')
        if not isinstance(name, str):
            raise TypeError('buffer name should be a string. Got ' + type(name).__name__)
        if '.' in name:
            raise KeyError('buffer name can\'t contain "."')
        if name == '':
            raise KeyError('buffer name can\'t be empty string ""')
        self._buffers[name] = tensor
        if not persistent:
            object.__setattr__(self, '_non_persistent', self._non_persistent_names() + [name])
        object.__setattr__(self, name, tensor)

    def _non_persistent_names(self):
        return getattr(self, '_non_persistent', [])

    def add_module(self, name, module):
        if module is not None and not isinstance(module, Module):
            raise TypeError(type(module).__name__ + ' is not a Module subclass')
        if '.' in name:
            raise KeyError('module name can\'t contain ".", got: ' + name)
        if name == '':
            raise KeyError('module name can\'t be empty string ""')
        self._modules[name] = module
        object.__setattr__(self, name, module)

    def register_module(self, name, module):
        self.add_module(name, module)

    def get_submodule(self, target):
        if target == '':
            return self
        mod = self
        for item in target.split('.'):
            if item not in mod._modules:
                raise AttributeError(type(mod).__name__ + ' has no attribute `' + item + '`')
            mod = mod._modules[item]
        return mod

    def set_submodule(self, target, module, strict=False):
        if target == '':
            raise ValueError('Cannot set the submodule without a target name!')
        atoms = target.split('.')
        if not isinstance(module, Module):
            raise ValueError('`module` is not an nn.Module, found ' + str(type(module)))
        parent = self if len(atoms) == 1 else self.get_submodule('.'.join(atoms[:-1]))
        if strict and not hasattr(parent, atoms[-1]):
            raise AttributeError(parent._get_name() + ' has no attribute `' + atoms[-1] + '`')
        if hasattr(parent, atoms[-1]) and not isinstance(getattr(parent, atoms[-1]), Module):
            raise AttributeError('`' + atoms[-1] + '` is not an nn.Module')
        setattr(parent, atoms[-1], module)

    # 'a.b.w' -> the submodule 'a.b', then its own parameter or buffer 'w'.
    def _get_member(self, target, table, kind):
        mod_path, _, name = target.rpartition('.')
        mod = self.get_submodule(mod_path)
        if not hasattr(mod, name):
            raise AttributeError(type(mod).__name__ + ' has no attribute `' + name + '`')
        if name not in getattr(mod, table):
            raise AttributeError('`' + name + '` is not ' + kind)
        return getattr(mod, name)

    def get_parameter(self, target):
        return self._get_member(target, '_parameters', 'an nn.Parameter')

    def get_buffer(self, target):
        return self._get_member(target, '_buffers', 'a buffer')

    # ---- traversal (lists, in PyTorch's order) ----

    def _module_list(self, memo, prefix, remove_duplicate):
        result = []
        if remove_duplicate:
            if _contains_obj(memo, self):
                return result
            memo.append(self)
        result.append((prefix, self))
        for name, module in self._modules.items():
            if module is None:
                continue
            sub = prefix + ('.' if prefix else '') + name
            result.extend(module._module_list(memo, sub, remove_duplicate))
        return result

    def named_modules(self, memo=None, prefix='', remove_duplicate=True):
        return iter(self._module_list([] if memo is None else memo, prefix, remove_duplicate))

    def modules(self):
        return iter([m for _, m in self._module_list([], '', True)])

    def _child_list(self):
        result = []
        seen = []
        for name, module in self._modules.items():
            if module is not None and not _contains_obj(seen, module):
                seen.append(module)
                result.append((name, module))
        return result

    def named_children(self):
        return iter(self._child_list())

    def children(self):
        return iter([m for _, m in self._child_list()])

    # remove_duplicate=False lists a shared module or tensor under each name.
    def _named_members(self, registry, prefix, recurse, remove_duplicate=True):
        if recurse:
            mods = self._module_list([], prefix, remove_duplicate)
        else:
            mods = [(prefix, self)]
        seen = []
        result = []
        for mod_prefix, mod in mods:
            for name, v in getattr(mod, registry).items():
                if v is None:
                    continue
                if remove_duplicate:
                    if _contains_obj(seen, v):
                        continue
                    seen.append(v)
                result.append((mod_prefix + ('.' if mod_prefix else '') + name, v))
        return result

    def named_parameters(self, prefix='', recurse=True, remove_duplicate=True):
        return iter(self._named_members('_parameters', prefix, recurse, remove_duplicate))

    def parameters(self, recurse=True):
        return iter([p for _, p in self._named_members('_parameters', '', recurse)])

    def named_buffers(self, prefix='', recurse=True, remove_duplicate=True):
        return iter(self._named_members('_buffers', prefix, recurse, remove_duplicate))

    def buffers(self, recurse=True):
        return iter([b for _, b in self._named_members('_buffers', '', recurse)])

    def apply(self, fn):
        for module in self.children():
            module.apply(fn)
        fn(self)
        return self

    # ---- modes and gradients ----

    def train(self, mode=True):
        if not isinstance(mode, bool):
            raise ValueError('training mode is expected to be boolean')
        self.training = mode
        for module in self.children():
            module.train(mode)
        return self

    def eval(self):
        return self.train(False)

    def requires_grad_(self, requires_grad=True):
        for p in self.parameters():
            p.requires_grad = requires_grad
        return self

    def zero_grad(self, set_to_none=True):
        for p in self.parameters():
            if p.grad is not None:
                if set_to_none:
                    p.grad = None
                else:
                    with torch.no_grad():
                        p.grad.zero_()

    # Conversions keep each Parameter object (its .data is replaced), as PyTorch's do, so an
    # optimizer built before model.to(...) still holds the model's parameters.
    def _apply(self, fn):
        for module in self.children():
            module._apply(fn)
        with torch.no_grad():
            for param in self._parameters.values():
                if param is not None:
                    param.data = fn(param)
                    if param.grad is not None:
                        param.grad = fn(param.grad)
            for key, buf in list(self._buffers.items()):
                if buf is not None:
                    self._buffers[key] = fn(buf)
                    object.__setattr__(self, key, self._buffers[key])
        return self

    def to(self, *args, **kwargs):
        device = kwargs.get('device')
        dtype = kwargs.get('dtype')
        for a in args:
            if isinstance(a, torch.Tensor):
                device, dtype = a.device, a.dtype
            elif isinstance(a, torch.dtype):
                dtype = a
            elif a is not None:
                device = a
        if dtype is not None and not dtype.is_floating_point:
            raise TypeError('nn.Module.to only accepts floating point or complex dtypes, but got desired dtype={}'
                            .format(dtype))

        memory_format = kwargs.get('memory_format')

        def convert(t):
            if dtype is not None and t.is_floating_point():
                t = t.to(dtype)
            if memory_format is not None and t.dim() == (5 if memory_format is torch.channels_last_3d else 4):
                t = t.contiguous(memory_format=memory_format)
            return t if device is None else t.to(device)
        return self._apply(convert)

    def cpu(self):
        return self._apply(lambda t: t.cpu())

    def share_memory(self):
        # Hogwild-style scripts call this before forking; Kiln runs one process,
        # so sharing leaves each tensor as it is.
        return self._apply(lambda t: t.share_memory_())

    def cuda(self, device=None):
        return self._apply(lambda t: t.cuda(device))

    def type(self, dst_type):
        return self._apply(lambda t: t.type(dst_type))

    def float(self):
        return self._apply(lambda t: t.float() if t.is_floating_point() else t)

    def double(self):
        return self._apply(lambda t: t.double() if t.is_floating_point() else t)

    def half(self):
        return self._apply(lambda t: t.half() if t.is_floating_point() else t)

    def bfloat16(self):
        return self._apply(lambda t: t.bfloat16() if t.is_floating_point() else t)

    # ---- state ----

    def state_dict(self, destination=None, prefix='', keep_vars=False):
        if destination is None:
            destination = OrderedDict()
        for name, p in self._parameters.items():
            if p is not None:
                destination[prefix + name] = p if keep_vars else p.detach()
        skip = self._non_persistent_names()
        for name, b in self._buffers.items():
            if b is not None and name not in skip:
                destination[prefix + name] = b if keep_vars else b.detach()
        if self._has_extra_state('get_extra_state'):
            destination[prefix + '_extra_state'] = self.get_extra_state()
        for name, module in self._modules.items():
            if module is not None:
                module.state_dict(destination, prefix + name + '.', keep_vars)
        return destination

    # PyTorch's extra state: a module whose class defines get_extra_state saves
    # what it returns under '<prefix>_extra_state', handed back to set_extra_state.
    def get_extra_state(self):
        raise RuntimeError('Reached a code path in Module.get_extra_state() that should never be called. Please '
                           'file an issue at https://github.com/pytorch/pytorch/issues/new?template=bug-report.yml '
                           'to report this bug.')

    def set_extra_state(self, state):
        raise RuntimeError('Reached a code path in Module.set_extra_state() that should never be called. Please '
                           'file an issue at https://github.com/pytorch/pytorch/issues/new?template=bug-report.yml '
                           'to report this bug.')

    def _has_extra_state(self, method):
        return getattr(type(self), method) is not getattr(Module, method)

    # PyTorch's per-module half of load_state_dict (modules override it to
    # adapt old checkpoints): loads the module's own parameters and persistent
    # buffers (assign=True: stores the checkpoint's tensors in their place)
    # and records the keys it misses and the ones no member here takes.
    def _load_from_state_dict(self, state_dict, prefix, local_metadata, strict, missing_keys, unexpected_keys,
                              error_msgs):
        skip = self._non_persistent_names()
        local_state = {}
        for name, p in self._parameters.items():
            if p is not None:
                local_state[name] = p
        for name, b in self._buffers.items():
            if b is not None and name not in skip:
                local_state[name] = b
        assign = local_metadata.get('assign_to_params_buffers', False)
        for name, param in local_state.items():
            key = prefix + name
            if key not in state_dict:
                if strict:
                    missing_keys.append(key)
                continue
            input_param = state_dict[key]
            if not isinstance(input_param, torch.Tensor):
                error_msgs.append('While copying the parameter named "' + key + '", expected torch.Tensor or '
                                  'Tensor-like object from checkpoint but received ' + str(type(input_param)))
                continue
            # A 1-element 1-D tensor fills a 0-dim one (checkpoints from before 0-dim tensors).
            if len(param.shape) == 0 and len(input_param.shape) == 1 and input_param.shape[0] == 1:
                input_param = input_param[0]
            if input_param.shape != param.shape:
                error_msgs.append('size mismatch for ' + key + ': copying a param with shape ' +
                                  str(input_param.shape) + ' from checkpoint, the shape in current model is ' +
                                  str(param.shape) + '.')
                continue
            try:
                with torch.no_grad():
                    if assign:
                        if _is_parameter(param):
                            if not _is_parameter(input_param):
                                input_param = Parameter(input_param, requires_grad=param.requires_grad)
                            else:
                                input_param.requires_grad_(param.requires_grad)
                        setattr(self, name, input_param)
                    else:
                        param.copy_(input_param)
            except Exception as ex:
                error_msgs.append('While copying the parameter named "' + key + '", whose dimensions in the model '
                                  'are ' + str(param.size()) + ' and whose dimensions in the checkpoint are ' +
                                  str(input_param.size()) + ', an exception occurred : ' + str(ex.args) + '.')
        extra_key = prefix + '_extra_state'
        if self._has_extra_state('set_extra_state'):
            if extra_key in state_dict:
                self.set_extra_state(state_dict[extra_key])
            elif strict:
                missing_keys.append(extra_key)
        elif strict and extra_key in state_dict:
            unexpected_keys.append(extra_key)
        if strict:
            for key in state_dict.keys():
                if key.startswith(prefix) and key != extra_key:
                    input_name = key[len(prefix):].split('.', 1)
                    if len(input_name) > 1:
                        if input_name[0] not in self._modules:
                            unexpected_keys.append(key)
                    elif input_name[0] not in local_state:
                        unexpected_keys.append(key)

    def load_state_dict(self, state_dict, strict=True, assign=False):
        if not hasattr(state_dict, 'keys') or not hasattr(state_dict, '__getitem__'):
            raise TypeError('Expected state_dict to be dict-like, got ' + str(type(state_dict)) + '.')
        missing, unexpected, errors = [], [], []
        metadata = {'assign_to_params_buffers': True} if assign else {}

        # Each child sees the keys under its prefix only, as PyTorch hands them.
        def load(module, local, prefix):
            module._load_from_state_dict(local, prefix, metadata, True, missing, unexpected, errors)
            for name, child in module._modules.items():
                if child is not None:
                    child_prefix = prefix + name + '.'
                    load(child, {k: v for k, v in local.items() if k.startswith(child_prefix)}, child_prefix)
        load(self, state_dict, '')
        if strict:
            if unexpected:
                errors.insert(0, 'Unexpected key(s) in state_dict: ' +
                              ', '.join(['"' + k + '"' for k in unexpected]) + '. ')
            if missing:
                errors.insert(0, 'Missing key(s) in state_dict: ' +
                              ', '.join(['"' + k + '"' for k in missing]) + '. ')
        if errors:
            raise RuntimeError('Error(s) in loading state_dict for ' + type(self).__name__ + ':\n\t' +
                               '\n\t'.join(errors))
        return _IncompatibleKeys(missing, unexpected)

    # ---- printing ----

    def extra_repr(self):
        return ''

    def _get_name(self):
        return type(self).__name__

    def __repr__(self):
        extra_lines = []
        extra = self.extra_repr()
        if extra:
            extra_lines = extra.split('\n')
        child_lines = []
        for key, module in self._modules.items():
            child_lines.append('(' + key + '): ' + _addindent(repr(module), 2))
        lines = extra_lines + child_lines
        main = self._get_name() + '('
        if lines:
            if len(extra_lines) == 1 and not child_lines:
                main += extra_lines[0]
            else:
                main += '\n  ' + '\n  '.join(lines) + '\n'
        return main + ')'

    def __str__(self):
        return self.__repr__()


# ---- nn.init ------------------------------------------------------------------------

def _calculate_fan_in_and_fan_out(tensor):
    dims = tensor.dim()
    if dims < 2:
        raise ValueError('Fan in and fan out can not be computed for tensor with fewer than 2 dimensions')
    receptive = 1
    for s in list(tensor.shape)[2:]:
        receptive *= s
    return tensor.shape[1] * receptive, tensor.shape[0] * receptive


def _calculate_gain(nonlinearity, param=None):
    if nonlinearity in ['linear', 'conv1d', 'conv2d', 'conv3d', 'sigmoid']:
        return 1
    if nonlinearity == 'tanh':
        return 5.0 / 3
    if nonlinearity == 'relu':
        return math.sqrt(2.0)
    if nonlinearity == 'leaky_relu':
        slope = 0.01 if param is None else param
        return math.sqrt(2.0 / (1 + slope ** 2))
    if nonlinearity == 'selu':
        return 3.0 / 4
    raise ValueError('Unsupported nonlinearity ' + str(nonlinearity))


def _fan(tensor, mode):
    if mode not in ['fan_in', 'fan_out']:
        raise ValueError('Mode ' + str(mode) + ' not supported, please use one of fan_in, fan_out')
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    return fan_in if mode == 'fan_in' else fan_out


class _Init:
    # nn.init: an object whose static methods are the initializers.
    @staticmethod
    def calculate_gain(nonlinearity, param=None):
        return _calculate_gain(nonlinearity, param)

    @staticmethod
    def _calculate_fan_in_and_fan_out(tensor):
        return _calculate_fan_in_and_fan_out(tensor)

    @staticmethod
    def uniform_(tensor, a=0.0, b=1.0):
        with torch.no_grad():
            return tensor.uniform_(a, b)

    @staticmethod
    def normal_(tensor, mean=0.0, std=1.0):
        with torch.no_grad():
            return tensor.normal_(mean, std)

    @staticmethod
    def constant_(tensor, val):
        with torch.no_grad():
            return tensor.fill_(val)

    @staticmethod
    def zeros_(tensor):
        with torch.no_grad():
            return tensor.zero_()

    @staticmethod
    def ones_(tensor):
        with torch.no_grad():
            return tensor.fill_(1.0)

    @staticmethod
    def xavier_uniform_(tensor, gain=1.0):
        fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
        std = gain * math.sqrt(2.0 / float(fan_in + fan_out))
        a = math.sqrt(3.0) * std
        with torch.no_grad():
            return tensor.uniform_(-a, a)

    @staticmethod
    def xavier_normal_(tensor, gain=1.0):
        fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
        std = gain * math.sqrt(2.0 / float(fan_in + fan_out))
        with torch.no_grad():
            return tensor.normal_(0.0, std)

    @staticmethod
    def kaiming_uniform_(tensor, a=0, mode='fan_in', nonlinearity='leaky_relu'):
        fan = _fan(tensor, mode)
        gain = _calculate_gain(nonlinearity, a)
        std = gain / math.sqrt(fan)
        bound = math.sqrt(3.0) * std
        with torch.no_grad():
            return tensor.uniform_(-bound, bound)

    @staticmethod
    def trunc_normal_(tensor, mean=0.0, std=1.0, a=-2.0, b=2.0, generator=None):
        # PyTorch 2.x's rejection sampling, draw for draw: from N(mean, std) when
        # [a, b] holds more than 30% of its mass, else uniform on [a, b]
        # accepted with the normal density relative to its peak.
        def norm_cdf(x):
            return (1.0 + math.erf(x / math.sqrt(2.0))) / 2.0
        with torch.no_grad():
            if norm_cdf((b - mean) / std) - norm_cdf((a - mean) / std) > 0.3:
                lo = tensor.new_tensor(a).item()
                hi = tensor.new_tensor(b).item()
                result = tensor.normal_(mean, std, generator=generator)
                while True:
                    mask = (result < lo) | (result > hi)
                    if not mask.any():
                        break
                    result = torch.where(mask, torch.empty_like(result).normal_(mean, std, generator=generator),
                                         result)
                if tensor is not result:
                    tensor.copy_(result)
                return tensor
            log_peak = -0.5 * ((max(a, min(mean, b)) - mean) / std) ** 2
            candidates = torch.empty_like(tensor)
            accept_buf = torch.empty_like(tensor)
            tensor.uniform_(a, b, generator=generator)
            candidates.copy_(tensor)
            candidates.sub_(mean).div_(std).pow_(2).mul_(-0.5).sub_(log_peak)
            pending = accept_buf.uniform_(generator=generator).log_().gt(candidates)
            result = tensor
            while pending.any():
                candidates.uniform_(a, b, generator=generator)
                result = torch.where(pending, candidates, result)
                candidates.sub_(mean).div_(std).pow_(2).mul_(-0.5).sub_(log_peak)
                pending = torch.where(pending, accept_buf.uniform_(generator=generator).log_().gt(candidates), pending)
            if result is not tensor:
                tensor.copy_(result)
            return tensor

    @staticmethod
    def kaiming_normal_(tensor, a=0, mode='fan_in', nonlinearity='leaky_relu'):
        fan = _fan(tensor, mode)
        gain = _calculate_gain(nonlinearity, a)
        std = gain / math.sqrt(fan)
        with torch.no_grad():
            return tensor.normal_(0.0, std)

    @staticmethod
    def orthogonal_(tensor, gain=1, generator=None):
        # PyTorch's: QR of a normal draw (transposed when wide), Q's columns signed by R's diagonal.
        if tensor.ndimension() < 2:
            raise ValueError('Only tensors with 2 or more dimensions are supported')
        if tensor.numel() == 0:
            return tensor
        rows = tensor.size(0)
        cols = tensor.numel() // rows
        with torch.no_grad():
            flattened = tensor.new_empty((rows, cols)).normal_(0, 1, generator=generator)
            if rows < cols:
                flattened = flattened.t()
            q, r = torch.linalg.qr(flattened)
            q = q * torch.diag(r, 0).sign()
            if rows < cols:
                q = q.t()
            tensor.view_as(q).copy_(q)
            tensor.mul_(gain)
        return tensor

    @staticmethod
    def eye_(tensor):
        if tensor.ndimension() != 2:
            raise ValueError('Only tensors with 2 dimensions are supported')
        with torch.no_grad():
            tensor.copy_(torch.eye(tensor.size(0), tensor.size(1)))
        return tensor

    @staticmethod
    def dirac_(tensor, groups=1):
        # An identity convolution: within each group, output channel d passes
        # input channel d through the kernel's centre tap.
        dims = tensor.ndimension()
        if dims not in (3, 4, 5):
            raise ValueError('Only tensors with 3, 4, or 5 dimensions are supported')
        sizes = tensor.size()
        if sizes[0] % groups != 0:
            raise ValueError('dim 0 must be divisible by groups')
        per_group = sizes[0] // groups
        centre = tuple(k // 2 for k in sizes[2:])
        with torch.no_grad():
            tensor.zero_()
            for g in range(groups):
                for d in range(min(per_group, sizes[1])):
                    tensor[(g * per_group + d, d) + centre] = 1
        return tensor


init = _Init()


# ---- layers -------------------------------------------------------------------------

class Identity(Module):
    def __init__(self, *args, **kwargs):
        super().__init__()

    def forward(self, input):
        return input


class Linear(Module):
    def __init__(self, in_features, out_features, bias=True, device=None, dtype=None):
        super().__init__()
        self.in_features = in_features
        self.out_features = out_features
        self.weight = Parameter(torch.empty(out_features, in_features))
        if bias:
            self.bias = Parameter(torch.empty(out_features))
        else:
            self.register_parameter('bias', None)
        self.reset_parameters()

    def reset_parameters(self):
        # kaiming_uniform_(a=sqrt(5)) then the bias from the same bound, like PyTorch.
        init.kaiming_uniform_(self.weight, math.sqrt(5))
        if self.bias is not None:
            fan_in, _ = _calculate_fan_in_and_fan_out(self.weight)
            bound = 1 / math.sqrt(fan_in) if fan_in > 0 else 0
            init.uniform_(self.bias, -bound, bound)

    def forward(self, input):
        return F.linear(input, self.weight, self.bias)

    def extra_repr(self):
        return 'in_features={}, out_features={}, bias={}'.format(
            self.in_features, self.out_features, self.bias is not None)


# LayerNorm's and RMSNorm's attributes: the shape as a tuple, a weight of ones
# and (bias=True) a bias of zeros when elementwise_affine, else None.
def _init_affine_norm(module, normalized_shape, eps, elementwise_affine, bias):
    if isinstance(normalized_shape, int):
        normalized_shape = (normalized_shape,)
    module.normalized_shape = tuple(normalized_shape)
    module.eps = eps
    module.elementwise_affine = elementwise_affine
    shape = list(module.normalized_shape)
    module.register_parameter('weight', Parameter(torch.ones(shape)) if elementwise_affine else None)
    if bias is not None:
        module.register_parameter('bias', Parameter(torch.zeros(shape)) if elementwise_affine and bias else None)


class LayerNorm(Module):
    def __init__(self, normalized_shape, eps=1e-5, elementwise_affine=True, bias=True, device=None, dtype=None):
        super().__init__()
        _init_affine_norm(self, normalized_shape, eps, elementwise_affine, bias)

    def reset_parameters(self):
        if self.elementwise_affine:
            init.ones_(self.weight)
            if self.bias is not None:
                init.zeros_(self.bias)

    def forward(self, input):
        return F.layer_norm(input, list(self.normalized_shape), self.weight, self.bias, self.eps)

    def extra_repr(self):
        # PyTorch 2.x's format (1.13 had no ", bias=...").
        return '{}, eps={}, elementwise_affine={}, bias={}'.format(
            self.normalized_shape, self.eps, self.elementwise_affine, self.bias is not None)


# padding_idx checked against the table and made non-negative (Embedding and EmbeddingBag).
def _embedding_padding_idx(padding_idx, num_embeddings):
    if padding_idx is None:
        return None
    if (padding_idx > 0 and padding_idx >= num_embeddings) or padding_idx < -num_embeddings:
        raise AssertionError('Padding_idx must be within num_embeddings')
    return padding_idx + num_embeddings if padding_idx < 0 else padding_idx


def _embedding_weight(module, num_embeddings, embedding_dim, _weight):
    if _weight is None:
        module.weight = Parameter(torch.empty(num_embeddings, embedding_dim))
        module.reset_parameters()
    else:
        module.weight = Parameter(_weight)


# N(0, 1), the padding row zero.
def _reset_embedding(module):
    init.normal_(module.weight)
    if module.padding_idx is not None:
        with torch.no_grad():
            module.weight[module.padding_idx].fill_(0)


class Embedding(Module):
    def __init__(self, num_embeddings, embedding_dim, padding_idx=None, max_norm=None, norm_type=2.0,
                 scale_grad_by_freq=False, sparse=False, _weight=None, device=None, dtype=None):
        super().__init__()
        self.num_embeddings = num_embeddings
        self.embedding_dim = embedding_dim
        self.padding_idx = _embedding_padding_idx(padding_idx, num_embeddings)
        self.max_norm = max_norm
        self.norm_type = norm_type
        self.scale_grad_by_freq = scale_grad_by_freq
        self.sparse = sparse
        _embedding_weight(self, num_embeddings, embedding_dim, _weight)

    def reset_parameters(self):
        _reset_embedding(self)

    @classmethod
    def from_pretrained(cls, embeddings, freeze=True, padding_idx=None, max_norm=None, norm_type=2.0,
                        scale_grad_by_freq=False, sparse=False):
        if embeddings.dim() != 2:
            raise AssertionError('Embeddings parameter is expected to be 2-dimensional')
        rows, cols = embeddings.shape
        emb = cls(rows, cols, _weight=embeddings, padding_idx=padding_idx, max_norm=max_norm,
                  norm_type=norm_type, scale_grad_by_freq=scale_grad_by_freq, sparse=sparse)
        emb.weight.requires_grad = not freeze
        return emb

    def forward(self, input):
        return F.embedding(input, self.weight, self.padding_idx, self.max_norm, self.norm_type,
                           self.scale_grad_by_freq, self.sparse)

    def extra_repr(self):
        s = '{}, {}'.format(self.num_embeddings, self.embedding_dim)
        if self.padding_idx is not None:
            s += ', padding_idx={}'.format(self.padding_idx)
        if self.max_norm is not None:
            s += ', max_norm={}'.format(self.max_norm)
        if self.norm_type != 2:
            s += ', norm_type={}'.format(self.norm_type)
        if self.scale_grad_by_freq is not False:
            s += ', scale_grad_by_freq={}'.format(self.scale_grad_by_freq)
        if self.sparse is not False:
            s += ', sparse=True'
        return s


class Dropout(Module):
    def __init__(self, p=0.5, inplace=False):
        super().__init__()
        if p < 0 or p > 1:
            raise ValueError('dropout probability has to be between 0 and 1, but got {}'.format(p))
        self.p = p
        self.inplace = inplace

    def forward(self, input):
        return F.dropout(input, self.p, self.training, self.inplace)

    def extra_repr(self):
        return 'p={}, inplace={}'.format(self.p, self.inplace)


class ReLU(Module):
    def __init__(self, inplace=False):
        super().__init__()
        self.inplace = inplace

    def forward(self, input):
        return F.relu(input, inplace=self.inplace)

    def extra_repr(self):
        return 'inplace=True' if self.inplace else ''


class GELU(Module):
    def __init__(self, approximate='none'):
        super().__init__()
        self.approximate = approximate

    def forward(self, input):
        return F.gelu(input, approximate=self.approximate)

    def extra_repr(self):
        return 'approximate={}'.format(repr(self.approximate))


class SiLU(Module):
    def __init__(self, inplace=False):
        super().__init__()
        self.inplace = inplace

    def forward(self, input):
        return F.silu(input, inplace=self.inplace)

    def extra_repr(self):
        return 'inplace=True' if self.inplace else ''


class Tanh(Module):
    def forward(self, input):
        return torch.tanh(input)


class Sigmoid(Module):
    def forward(self, input):
        return torch.sigmoid(input)


class Softmax(Module):
    def __init__(self, dim=None):
        super().__init__()
        self.dim = dim

    def forward(self, input):
        return F.softmax(input, self.dim)

    def extra_repr(self):
        return 'dim={}'.format(self.dim)


class LogSoftmax(Module):
    def __init__(self, dim=None):
        super().__init__()
        self.dim = dim

    def forward(self, input):
        return F.log_softmax(input, self.dim)

    def extra_repr(self):
        return 'dim={}'.format(self.dim)


class Flatten(Module):
    def __init__(self, start_dim=1, end_dim=-1):
        super().__init__()
        self.start_dim = start_dim
        self.end_dim = end_dim

    def forward(self, input):
        return input.flatten(self.start_dim, self.end_dim)

    def extra_repr(self):
        return 'start_dim={}, end_dim={}'.format(self.start_dim, self.end_dim)


class Unflatten(Module):
    def __init__(self, dim, unflattened_size):
        super().__init__()
        self.dim = dim
        self.unflattened_size = unflattened_size

    def forward(self, input):
        return input.unflatten(self.dim, self.unflattened_size)

    def extra_repr(self):
        return 'dim={}, unflattened_size={}'.format(self.dim, self.unflattened_size)


def _pixel_shuffle(input, upscale_factor):
    r = upscale_factor
    if input.dim() < 3:
        raise RuntimeError('pixel_shuffle expects input to have at least 3 dimensions, but got input with {} '
                           'dimension(s)'.format(input.dim()))
    *batch, c, h, w = input.shape
    if c % (r * r) != 0:
        raise RuntimeError('pixel_shuffle expects its input\'s \'channel\' dimension to be divisible by the '
                           'square of upscale_factor, but input.size(-3)={} is not divisible by {}'.format(c, r * r))
    oc = c // (r * r)
    x = input.reshape(-1, oc, r, r, h, w).permute(0, 1, 4, 2, 5, 3)
    return torch._C._set_grad_fn_name(x.reshape(list(batch) + [oc, h * r, w * r]), 'PixelShuffleBackward0')


def _pixel_unshuffle(input, downscale_factor):
    r = downscale_factor
    if input.dim() < 3:
        raise RuntimeError('pixel_unshuffle expects input to have at least 3 dimensions, but got input with {} '
                           'dimension(s)'.format(input.dim()))
    *batch, c, h, w = input.shape
    for name, axis, size in (('height', -2, h), ('width', -1, w)):
        if size % r != 0:
            raise RuntimeError('pixel_unshuffle expects {} to be divisible by downscale_factor, but '
                               'input.size({})={} is not divisible by {}'.format(name, axis, size, r))
    x = input.reshape(-1, c, h // r, r, w // r, r).permute(0, 1, 3, 5, 2, 4)
    return torch._C._set_grad_fn_name(x.reshape(list(batch) + [c * r * r, h // r, w // r]), 'PixelUnshuffleBackward0')


F.pixel_shuffle = _pixel_shuffle
F.pixel_unshuffle = _pixel_unshuffle


class PixelShuffle(Module):
    def __init__(self, upscale_factor):
        super().__init__()
        self.upscale_factor = upscale_factor

    def forward(self, input):
        return _pixel_shuffle(input, self.upscale_factor)

    def extra_repr(self):
        return 'upscale_factor={}'.format(self.upscale_factor)


class PixelUnshuffle(Module):
    def __init__(self, downscale_factor):
        super().__init__()
        self.downscale_factor = downscale_factor

    def forward(self, input):
        return _pixel_unshuffle(input, self.downscale_factor)

    def extra_repr(self):
        return 'downscale_factor={}'.format(self.downscale_factor)


def _bilinear(input1, input2, weight, bias=None):
    lead = list(input1.shape[:-1])
    x1 = input1 if input1.dim() == 2 else input1.reshape(-1, input1.shape[-1])
    x2 = input2 if input2.dim() == 2 else input2.reshape(-1, input2.shape[-1])
    out = torch.einsum('bi,oij,bj->bo', x1, weight, x2)
    # ATen's node order: the product viewed to the input's shape, then the bias.
    out = torch._C._set_grad_fn_name(out.reshape(lead + [weight.shape[0]]), 'ViewBackward0')
    return out if bias is None else out + bias


F.bilinear = _bilinear


class Bilinear(Module):
    def __init__(self, in1_features, in2_features, out_features, bias=True, device=None, dtype=None):
        super().__init__()
        self.in1_features = in1_features
        self.in2_features = in2_features
        self.out_features = out_features
        self.weight = Parameter(torch.empty(out_features, in1_features, in2_features))
        if bias:
            self.bias = Parameter(torch.empty(out_features))
        else:
            self.register_parameter('bias', None)
        bound = 1 / math.sqrt(self.weight.size(1))
        init.uniform_(self.weight, -bound, bound)
        if self.bias is not None:
            init.uniform_(self.bias, -bound, bound)

    def forward(self, input1, input2):
        return _bilinear(input1, input2, self.weight, self.bias)

    def extra_repr(self):
        return 'in1_features={}, in2_features={}, out_features={}, bias={}'.format(
            self.in1_features, self.in2_features, self.out_features, self.bias is not None)


def _inplace_str(inplace, sep=', '):
    return sep + 'inplace=True' if inplace else ''


class LeakyReLU(Module):
    def __init__(self, negative_slope=1e-2, inplace=False):
        super().__init__()
        self.negative_slope = negative_slope
        self.inplace = inplace

    def forward(self, input):
        return F.leaky_relu(input, self.negative_slope, self.inplace)

    def extra_repr(self):
        return 'negative_slope={}{}'.format(self.negative_slope, _inplace_str(self.inplace))


class ELU(Module):
    def __init__(self, alpha=1.0, inplace=False):
        super().__init__()
        self.alpha = alpha
        self.inplace = inplace

    def forward(self, input):
        return F.elu(input, self.alpha, self.inplace)

    def extra_repr(self):
        return 'alpha={}{}'.format(self.alpha, _inplace_str(self.inplace))


class CELU(ELU):
    def forward(self, input):
        return F.celu(input, self.alpha, self.inplace)


class SELU(Module):
    def __init__(self, inplace=False):
        super().__init__()
        self.inplace = inplace

    def forward(self, input):
        return F.selu(input, self.inplace)

    def extra_repr(self):
        return _inplace_str(self.inplace, '')


class Mish(SELU):
    def forward(self, input):
        return F.mish(input, self.inplace)


class Hardswish(SELU):
    def forward(self, input):
        return F.hardswish(input, self.inplace)

    def extra_repr(self):
        return ''


class Hardsigmoid(Hardswish):
    def forward(self, input):
        return F.hardsigmoid(input, self.inplace)


class Hardtanh(Module):
    def __init__(self, min_val=-1.0, max_val=1.0, inplace=False, min_value=None, max_value=None):
        super().__init__()
        if min_value is not None:
            min_val = min_value
        if max_value is not None:
            max_val = max_value
        self.min_val = min_val
        self.max_val = max_val
        self.inplace = inplace
        if self.max_val <= self.min_val:
            raise AssertionError()

    def forward(self, input):
        return F.hardtanh(input, self.min_val, self.max_val, self.inplace)

    def extra_repr(self):
        return 'min_val={}, max_val={}{}'.format(self.min_val, self.max_val, _inplace_str(self.inplace))


class ReLU6(Hardtanh):
    def __init__(self, inplace=False):
        super().__init__(0.0, 6.0, inplace)

    def extra_repr(self):
        return _inplace_str(self.inplace, '')


class Threshold(Module):
    def __init__(self, threshold, value, inplace=False):
        super().__init__()
        self.threshold = threshold
        self.value = value
        self.inplace = inplace

    def forward(self, input):
        return F.threshold(input, self.threshold, self.value, self.inplace)

    def extra_repr(self):
        return 'threshold={}, value={}{}'.format(self.threshold, self.value, _inplace_str(self.inplace))


class Softplus(Module):
    def __init__(self, beta=1.0, threshold=20.0):
        super().__init__()
        self.beta = beta
        self.threshold = threshold

    def forward(self, input):
        return F.softplus(input, self.beta, self.threshold)

    def extra_repr(self):
        return 'beta={}, threshold={}'.format(self.beta, self.threshold)


class Softsign(Module):
    def forward(self, input):
        return F.softsign(input)


class LogSigmoid(Module):
    def forward(self, input):
        return F.logsigmoid(input)


class Tanhshrink(Module):
    def forward(self, input):
        return F.tanhshrink(input)


class Softshrink(Module):
    def __init__(self, lambd=0.5):
        super().__init__()
        self.lambd = lambd

    def forward(self, input):
        return F.softshrink(input, self.lambd)

    def extra_repr(self):
        return str(self.lambd)


class Hardshrink(Softshrink):
    def forward(self, input):
        return F.hardshrink(input, self.lambd)


class GLU(Module):
    def __init__(self, dim=-1):
        super().__init__()
        self.dim = dim

    def forward(self, input):
        return F.glu(input, self.dim)

    def extra_repr(self):
        return 'dim={}'.format(self.dim)


class PReLU(Module):
    def __init__(self, num_parameters=1, init=0.25, device=None, dtype=None):
        self.num_parameters = num_parameters
        self.init = init
        super().__init__()
        self.weight = Parameter(torch.empty(num_parameters))
        self.reset_parameters()

    def reset_parameters(self):
        with torch.no_grad():
            self.weight.fill_(self.init)

    def forward(self, input):
        return F.prelu(input, self.weight)

    def extra_repr(self):
        return 'num_parameters={}'.format(self.num_parameters)


class Softmin(Module):
    def __init__(self, dim=None):
        super().__init__()
        self.dim = dim

    def forward(self, input):
        return F.softmin(input, self.dim)

    def extra_repr(self):
        return 'dim={}'.format(self.dim)


# ---- losses -------------------------------------------------------------------------

class CrossEntropyLoss(Module):
    def __init__(self, weight=None, size_average=None, ignore_index=-100, reduce=None, reduction='mean',
                 label_smoothing=0.0):
        super().__init__()
        self.weight = weight
        self.ignore_index = ignore_index
        self.reduction = reduction
        self.label_smoothing = label_smoothing

    def forward(self, input, target):
        return F.cross_entropy(input, target, weight=self.weight, ignore_index=self.ignore_index,
                               reduction=self.reduction, label_smoothing=self.label_smoothing)


class MSELoss(Module):
    def __init__(self, size_average=None, reduce=None, reduction='mean'):
        super().__init__()
        self.reduction = reduction

    def forward(self, input, target):
        return F.mse_loss(input, target, reduction=self.reduction)


def _legacy_reduction(size_average, reduce):
    if size_average is None:
        size_average = True
    if reduce is None:
        reduce = True
    if size_average and reduce:
        return 'mean'
    return 'sum' if reduce else 'none'


class _Loss(Module):
    def __init__(self, size_average=None, reduce=None, reduction='mean'):
        super().__init__()
        if size_average is not None or reduce is not None:
            reduction = _legacy_reduction(size_average, reduce)
        self.reduction = reduction


class _WeightedLoss(_Loss):
    def __init__(self, weight=None, size_average=None, reduce=None, reduction='mean'):
        super().__init__(size_average, reduce, reduction)
        self.register_buffer('weight', weight)


class L1Loss(_Loss):
    def forward(self, input, target):
        return F.l1_loss(input, target, reduction=self.reduction)


class NLLLoss(_WeightedLoss):
    def __init__(self, weight=None, size_average=None, ignore_index=-100, reduce=None, reduction='mean'):
        super().__init__(weight, size_average, reduce, reduction)
        self.ignore_index = ignore_index

    def forward(self, input, target):
        return F.nll_loss(input, target, weight=self.weight, ignore_index=self.ignore_index,
                          reduction=self.reduction)


class BCELoss(_WeightedLoss):
    def forward(self, input, target):
        return F.binary_cross_entropy(input, target, weight=self.weight, reduction=self.reduction)


class BCEWithLogitsLoss(_Loss):
    def __init__(self, weight=None, size_average=None, reduce=None, reduction='mean', pos_weight=None):
        super().__init__(size_average, reduce, reduction)
        self.register_buffer('weight', weight)
        self.register_buffer('pos_weight', pos_weight)

    def forward(self, input, target):
        return F.binary_cross_entropy_with_logits(input, target, self.weight, pos_weight=self.pos_weight,
                                                  reduction=self.reduction)


class SmoothL1Loss(_Loss):
    def __init__(self, size_average=None, reduce=None, reduction='mean', beta=1.0):
        super().__init__(size_average, reduce, reduction)
        self.beta = beta

    def forward(self, input, target):
        return F.smooth_l1_loss(input, target, reduction=self.reduction, beta=self.beta)


class HuberLoss(_Loss):
    def __init__(self, reduction='mean', delta=1.0):
        super().__init__(reduction=reduction)
        self.delta = delta

    def forward(self, input, target):
        return F.huber_loss(input, target, reduction=self.reduction, delta=self.delta)


class KLDivLoss(_Loss):
    def __init__(self, size_average=None, reduce=None, reduction='mean', log_target=False):
        super().__init__(size_average, reduce, reduction)
        self.log_target = log_target

    def forward(self, input, target):
        return F.kl_div(input, target, reduction=self.reduction, log_target=self.log_target)


class SoftMarginLoss(_Loss):
    def forward(self, input, target):
        return F.soft_margin_loss(input, target, reduction=self.reduction)


class HingeEmbeddingLoss(_Loss):
    def __init__(self, margin=1.0, size_average=None, reduce=None, reduction='mean'):
        super().__init__(size_average, reduce, reduction)
        self.margin = margin

    def forward(self, input, target):
        return F.hinge_embedding_loss(input, target, margin=self.margin, reduction=self.reduction)


class CosineEmbeddingLoss(_Loss):
    def __init__(self, margin=0.0, size_average=None, reduce=None, reduction='mean'):
        super().__init__(size_average, reduce, reduction)
        self.margin = margin

    def forward(self, input1, input2, target):
        return F.cosine_embedding_loss(input1, input2, target, margin=self.margin, reduction=self.reduction)


class MarginRankingLoss(_Loss):
    def __init__(self, margin=0.0, size_average=None, reduce=None, reduction='mean'):
        super().__init__(size_average, reduce, reduction)
        self.margin = margin

    def forward(self, input1, input2, target):
        return F.margin_ranking_loss(input1, input2, target, margin=self.margin, reduction=self.reduction)


class TripletMarginLoss(_Loss):
    def __init__(self, margin=1.0, p=2.0, eps=1e-6, swap=False, size_average=None, reduce=None, reduction='mean'):
        super().__init__(size_average, reduce, reduction)
        self.margin = margin
        self.p = p
        self.eps = eps
        self.swap = swap

    def forward(self, anchor, positive, negative):
        return F.triplet_margin_loss(anchor, positive, negative, margin=self.margin, p=self.p, eps=self.eps,
                                     swap=self.swap, reduction=self.reduction)


# F.local_response_norm, as PyTorch composes it: each position divided by
# (k + alpha * the mean square over `size` neighbouring channels) ** beta.
def _local_response_norm(input, size, alpha=1e-4, beta=0.75, k=1.0):
    dim = input.dim()
    if dim < 3:
        raise ValueError('Expected 3D or higher dimensionality input (got {} dimensions)'.format(dim))
    if input.numel() == 0:
        return input
    sizes = input.size()
    div = input.mul(input).reshape(sizes[0], 1, sizes[1], -1)
    div = F.pad(div, (0, 0, size // 2, (size - 1) // 2))
    div = F.avg_pool2d(div, (size, 1), stride=1).reshape(sizes)
    div = div.mul(alpha).add(k).pow(beta)
    return input / div


F.local_response_norm = _local_response_norm


def _pair(v):
    return (v, v) if isinstance(v, (int, float)) else tuple(v)


# F.unfold (im2col): every kernel_size patch of a [N, C, H, W] (or [C, H, W]) input as a column,
# [N, C * kh * kw, L], from strided windows (Tensor.unfold) of the padded input.
def _unfold(input, kernel_size, dilation=1, padding=0, stride=1):
    if input.dim() not in (3, 4):
        raise NotImplementedError('Input Error: Only 3D or 4D input Tensors are supported (got {}D)'.format(input.dim()))
    batched = input.dim() == 4
    x = input if batched else input.unsqueeze(0)
    (kh, kw), (dh, dw), (ph, pw), (sh, sw) = _pair(kernel_size), _pair(dilation), _pair(padding), _pair(stride)
    if sh <= 0 or sw <= 0:
        raise RuntimeError('stride should be greater than zero, but got stride_height: {} stride_width: {}'
                           .format(sh, sw))
    h, w = x.shape[2], x.shape[3]
    oh = (h + 2 * ph - dh * (kh - 1) - 1) // sh + 1
    ow = (w + 2 * pw - dw * (kw - 1) - 1) // sw + 1
    if oh < 1 or ow < 1:
        raise RuntimeError('Given input with spatial size ({}, {}), kernel_size=({}, {}), dilation=({}, {}), '
                           'padding=({}, {}), calculated shape of the array of sliding blocks as ({}, {}), but its '
                           'components must be at least one.'.format(h, w, kh, kw, dh, dw, ph, pw, oh, ow))
    x = F.pad(x, (pw, pw, ph, ph))
    x = x.unfold(2, (kh - 1) * dh + 1, sh)[..., ::dh].unfold(3, (kw - 1) * dw + 1, sw)[..., ::dw]
    n, c, oh, ow = x.shape[0], x.shape[1], x.shape[2], x.shape[3]
    cols = x.permute(0, 1, 4, 5, 2, 3).reshape(n, c * kh * kw, oh * ow)
    return torch._C._set_grad_fn_name(cols if batched else cols.squeeze(0), 'Im2ColBackward0')


# F.fold (col2im): the inverse placement, overlapping patches summed.
def _fold(input, output_size, kernel_size, dilation=1, padding=0, stride=1):
    if input.dim() not in (2, 3):
        raise NotImplementedError('Input Error: Only unbatched (2D) or batched (3D) input Tensors are supported '
                                  '(got {}D)'.format(input.dim()))
    batched = input.dim() == 3
    cols = input if batched else input.unsqueeze(0)
    (h, w), (kh, kw) = _pair(output_size), _pair(kernel_size)
    (dh, dw), (ph, pw), (sh, sw) = _pair(dilation), _pair(padding), _pair(stride)
    oh = (h + 2 * ph - dh * (kh - 1) - 1) // sh + 1
    ow = (w + 2 * pw - dw * (kw - 1) - 1) // sw + 1
    n = cols.shape[0]
    if cols.shape[1] % (kh * kw) != 0:
        raise RuntimeError('Expected size of input\'s dimension 1 to be divisible by the product of kernel_size, but '
                           'got input.size(1)={} and kernel_size=({}, {}).'.format(cols.shape[1], kh, kw))
    if cols.shape[2] != oh * ow:
        raise RuntimeError('Given output_size=({}, {}), kernel_size=({}, {}), dilation=({}, {}), padding=({}, {}), '
                           'stride=({}, {}), expected size of input\'s dimension 2 to match the calculated number of '
                           'sliding blocks {} * {} = {}, but got input.size(2)={}.'.format(
                               h, w, kh, kw, dh, dw, ph, pw, sh, sw, oh, ow, oh * ow, cols.shape[2]))
    c = cols.shape[1] // (kh * kw)
    cols = cols.reshape(n, c, kh, kw, oh, ow)
    out = torch.zeros(n, c, h + 2 * ph, w + 2 * pw, dtype=input.dtype, device=input.device)
    for i in range(kh):
        for j in range(kw):
            out[:, :, i * dh:i * dh + sh * (oh - 1) + 1:sh, j * dw:j * dw + sw * (ow - 1) + 1:sw] += cols[:, :, i, j]
    out = out[:, :, ph:ph + h, pw:pw + w]
    return torch._C._set_grad_fn_name(out if batched else out.squeeze(0), 'Col2ImBackward0')


F.unfold = _unfold
F.fold = _fold


# F.embedding_bag: the rows of each bag (a row of a 2-D input, or input[offsets[i]:offsets[i+1]])
# summed, averaged or maxed; padding_idx entries are left out, an empty bag is zeros.
def _embedding_bag(input, weight, offsets=None, max_norm=None, norm_type=2, scale_grad_by_freq=False, mode='mean',
                   sparse=False, per_sample_weights=None, include_last_offset=False, padding_idx=None):
    if mode not in ('sum', 'mean', 'max'):
        raise ValueError('mode has to be one of sum, mean or max')
    if per_sample_weights is not None and mode != 'sum':
        raise NotImplementedError("embedding_bag: per_sample_weights was not None. per_sample_weights is only "
                                  "supported for mode='sum' (got mode='{}'). Please open a feature request on "
                                  "GitHub.".format(mode))
    if input.dim() == 2:
        if offsets is not None:
            raise ValueError('if input is 2D, then offsets has to be None, as input is treated is a mini-batch of '
                             'fixed length sequences. However, found offsets of type {}'.format(type(offsets)))
        starts = list(range(0, input.numel(), input.size(1)))
        input = input.reshape(-1)
        if per_sample_weights is not None:
            per_sample_weights = per_sample_weights.reshape(-1)
        ends = starts[1:] + [input.numel()]
    elif input.dim() == 1:
        if offsets is None or offsets.dim() != 1:
            raise ValueError('offsets has to be a 1D Tensor')
        bounds = offsets.tolist()
        if len(bounds) > 0 and bounds[0] != 0:
            raise RuntimeError('offsets[0] has to be 0, i.e., the first sequence in the mini-batch has to start from '
                               'position 0. However, got {}\n[ torch.LongTensor{{}} ]'.format(bounds[0]))
        if len(bounds) > 0 and bounds[-1] > input.numel():
            raise RuntimeError("offsets[-1] can not be greater than input's length {} but got offsets[-1] of {}"
                               .format(input.numel(), bounds[-1]))
        starts = bounds[:-1] if include_last_offset else bounds
        ends = bounds[1:] if include_last_offset else bounds[1:] + [input.numel()]
    else:
        raise ValueError('input has to be 1D or 2D Tensor, but got Tensor of dimension {}'.format(input.dim()))
    emb = F.embedding(input, weight, padding_idx, max_norm, norm_type, scale_grad_by_freq, sparse)
    if per_sample_weights is not None:
        emb = emb * per_sample_weights.unsqueeze(1)
    ids = input.tolist() if padding_idx is not None else None
    rows = []
    for a, b in zip(starts, ends):
        keep = [i for i in range(a, b) if ids is None or ids[i] != padding_idx]
        if len(keep) == 0:
            rows.append(torch.zeros(weight.size(1), dtype=weight.dtype, device=weight.device))
            continue
        seg = emb[a:b] if len(keep) == b - a else emb[torch.tensor(keep)]
        if mode == 'sum':
            rows.append(seg.sum(0))
        elif mode == 'mean':
            rows.append(seg.mean(0))
        else:
            rows.append(seg.max(0).values)
    out = torch.stack(rows) if len(rows) > 0 else torch.zeros(0, weight.size(1), dtype=weight.dtype)
    return torch._C._set_grad_fn_name(out, 'EmbeddingBagBackward0')


F.embedding_bag = _embedding_bag


class EmbeddingBag(Module):
    def __init__(self, num_embeddings, embedding_dim, max_norm=None, norm_type=2.0, scale_grad_by_freq=False,
                 mode='mean', sparse=False, _weight=None, include_last_offset=False, padding_idx=None, device=None,
                 dtype=None):
        super().__init__()
        self.num_embeddings = num_embeddings
        self.embedding_dim = embedding_dim
        self.max_norm = max_norm
        self.norm_type = norm_type
        self.scale_grad_by_freq = scale_grad_by_freq
        self.padding_idx = _embedding_padding_idx(padding_idx, num_embeddings)
        self.mode = mode
        self.sparse = sparse
        self.include_last_offset = include_last_offset
        _embedding_weight(self, num_embeddings, embedding_dim, _weight)

    def reset_parameters(self):
        _reset_embedding(self)

    @classmethod
    def from_pretrained(cls, embeddings, freeze=True, max_norm=None, norm_type=2.0, scale_grad_by_freq=False,
                        mode='mean', sparse=False, include_last_offset=False, padding_idx=None):
        if embeddings.dim() != 2:
            raise AssertionError('Embeddings parameter is expected to be 2-dimensional')
        rows, cols = embeddings.shape
        bag = cls(rows, cols, _weight=embeddings, max_norm=max_norm, norm_type=norm_type,
                  scale_grad_by_freq=scale_grad_by_freq, mode=mode, sparse=sparse,
                  include_last_offset=include_last_offset, padding_idx=padding_idx)
        bag.weight.requires_grad = not freeze
        return bag

    def forward(self, input, offsets=None, per_sample_weights=None):
        return F.embedding_bag(input, self.weight, offsets, self.max_norm, self.norm_type, self.scale_grad_by_freq,
                               self.mode, self.sparse, per_sample_weights, self.include_last_offset,
                               self.padding_idx)

    def extra_repr(self):
        s = '{}, {}'.format(self.num_embeddings, self.embedding_dim)
        if self.max_norm is not None:
            s += ', max_norm={}'.format(self.max_norm)
        if self.norm_type != 2:
            s += ', norm_type={}'.format(self.norm_type)
        if self.scale_grad_by_freq:
            s += ', scale_grad_by_freq={}'.format(self.scale_grad_by_freq)
        s += ", mode='{}'".format(self.mode)
        if self.padding_idx is not None:
            s += ', padding_idx={}'.format(self.padding_idx)
        return s


class Unfold(Module):
    def __init__(self, kernel_size, dilation=1, padding=0, stride=1):
        super().__init__()
        self.kernel_size = kernel_size
        self.dilation = dilation
        self.padding = padding
        self.stride = stride

    def forward(self, input):
        return F.unfold(input, self.kernel_size, self.dilation, self.padding, self.stride)

    def extra_repr(self):
        return 'kernel_size={}, dilation={}, padding={}, stride={}'.format(self.kernel_size, self.dilation,
                                                                           self.padding, self.stride)


class Fold(Module):
    def __init__(self, output_size, kernel_size, dilation=1, padding=0, stride=1):
        super().__init__()
        self.output_size = output_size
        self.kernel_size = kernel_size
        self.dilation = dilation
        self.padding = padding
        self.stride = stride

    def forward(self, input):
        return F.fold(input, self.output_size, self.kernel_size, self.dilation, self.padding, self.stride)

    def extra_repr(self):
        return 'output_size={}, kernel_size={}, dilation={}, padding={}, stride={}'.format(
            self.output_size, self.kernel_size, self.dilation, self.padding, self.stride)


class LocalResponseNorm(Module):
    def __init__(self, size, alpha=1e-4, beta=0.75, k=1.0):
        super().__init__()
        self.size = size
        self.alpha = alpha
        self.beta = beta
        self.k = k

    def forward(self, input):
        return F.local_response_norm(input, self.size, self.alpha, self.beta, self.k)

    def extra_repr(self):
        return '{}, alpha={}, beta={}, k={}'.format(self.size, self.alpha, self.beta, self.k)


class PoissonNLLLoss(_Loss):
    def __init__(self, log_input=True, full=False, size_average=None, eps=1e-8, reduce=None, reduction='mean'):
        super().__init__(size_average, reduce, reduction)
        self.log_input = log_input
        self.full = full
        self.eps = eps

    def forward(self, log_input, target):
        return F.poisson_nll_loss(log_input, target, log_input=self.log_input, full=self.full, eps=self.eps,
                                  reduction=self.reduction)


class GaussianNLLLoss(_Loss):
    def __init__(self, *, full=False, eps=1e-6, reduction='mean'):
        super().__init__(None, None, reduction)
        self.full = full
        self.eps = eps

    def forward(self, input, target, var):
        return F.gaussian_nll_loss(input, target, var, full=self.full, eps=self.eps, reduction=self.reduction)


# ---- distances ----------------------------------------------------------------------

class CosineSimilarity(Module):
    def __init__(self, dim=1, eps=1e-8):
        super().__init__()
        self.dim = dim
        self.eps = eps

    def forward(self, x1, x2):
        return F.cosine_similarity(x1, x2, self.dim, self.eps)


class PairwiseDistance(Module):
    def __init__(self, p=2.0, eps=1e-6, keepdim=False):
        super().__init__()
        self.norm = p
        self.eps = eps
        self.keepdim = keepdim

    def forward(self, x1, x2):
        return F.pairwise_distance(x1, x2, self.norm, self.eps, self.keepdim)


# ---- containers ---------------------------------------------------------------------

def _check_index(idx, size):
    if not (-size <= idx < size):
        raise IndexError('index {} is out of range'.format(idx))
    return idx % size if size else idx


class Sequential(Module):
    def __init__(self, *args):
        super().__init__()
        if len(args) == 1 and isinstance(args[0], dict):
            for key, module in args[0].items():
                self.add_module(key, module)
        else:
            for idx, module in enumerate(args):
                self.add_module(str(idx), module)

    def __getitem__(self, idx):
        if isinstance(idx, slice):
            out = Sequential()
            for key, module in list(self._modules.items())[idx]:
                out.add_module(key, module)
            return out
        i = _check_index(idx, len(self._modules))
        return list(self._modules.values())[i]

    def __setitem__(self, idx, module):
        i = _check_index(idx, len(self._modules))
        key = list(self._modules.keys())[i]
        setattr(self, key, module)

    def __len__(self):
        return len(self._modules)

    def __iter__(self):
        return iter(list(self._modules.values()))

    def append(self, module):
        self.add_module(str(len(self._modules)), module)
        return self

    def forward(self, input):
        for module in self._modules.values():
            input = module(input)
        return input


class ModuleList(Module):
    def __init__(self, modules=None):
        super().__init__()
        if modules is not None:
            self.extend(modules)

    def __getitem__(self, idx):
        if isinstance(idx, slice):
            return ModuleList(list(self._modules.values())[idx])
        i = _check_index(idx, len(self._modules))
        return self._modules[str(i)]

    def __setitem__(self, idx, module):
        i = _check_index(idx, len(self._modules))
        setattr(self, str(i), module)

    def __len__(self):
        return len(self._modules)

    def __iter__(self):
        return iter(list(self._modules.values()))

    def __repr__(self):
        # PyTorch 2.x folds runs of identical children: "(0-1): 2 x Linear(...)".
        reprs = [repr(m) for m in self._modules.values()]
        if len(reprs) == 0:
            return self._get_name() + '()'
        runs = [[0, 0, reprs[0]]]
        for i in range(1, len(reprs)):
            if reprs[i] == runs[-1][2]:
                runs[-1][1] = i
            else:
                runs.append([i, i, reprs[i]])
        lines = []
        for start, end, text in runs:
            if start == end:
                lines.append(_addindent('({}): {}'.format(start, text), 2))
            else:
                lines.append(_addindent('({}-{}): {} x {}'.format(start, end, end - start + 1, text), 2))
        return self._get_name() + '(\n  ' + '\n  '.join(lines) + '\n)'

    def append(self, module):
        self.add_module(str(len(self._modules)), module)
        return self

    def extend(self, modules):
        for module in modules:
            self.append(module)
        return self

    def insert(self, index, module):
        mods = list(self._modules.values())
        mods.insert(index, module)
        self._modules.clear()
        for i, m in enumerate(mods):
            self.add_module(str(i), m)


class ModuleDict(Module):
    def __init__(self, modules=None):
        super().__init__()
        if modules is not None:
            self.update(modules)

    def __getitem__(self, key):
        return self._modules[key]

    def __setitem__(self, key, module):
        self.add_module(key, module)

    def __len__(self):
        return len(self._modules)

    def __iter__(self):
        return iter(list(self._modules.keys()))

    def __contains__(self, key):
        return key in self._modules

    def keys(self):
        return list(self._modules.keys())

    def items(self):
        return list(self._modules.items())

    def values(self):
        return list(self._modules.values())

    def update(self, modules):
        for key, module in modules.items():
            self.add_module(key, module)


_TYPENAMES = {torch.float32: 'FloatTensor', torch.float64: 'DoubleTensor', torch.float16: 'HalfTensor',
              torch.bfloat16: 'BFloat16Tensor', torch.int64: 'LongTensor', torch.int32: 'IntTensor',
              torch.bool: 'BoolTensor'}


# One line of a parameter container's repr; ParameterList names the dtype,
# ParameterDict the legacy type name (torch.typename), as PyTorch 2.x does.
def _param_line(key, p, typename=False):
    if isinstance(p, torch.Tensor):
        size = 'x'.join(str(n) for n in p.size())
        device = ' ({})'.format(p.device) if p.device.type == 'cuda' else ''
        kind = 'Parameter' if _is_parameter(p) else 'Tensor'
        dtype = str(p.dtype)
        if typename:
            dtype = ('torch.cuda.' if p.device.type == 'cuda' else 'torch.') + _TYPENAMES[p.dtype]
        return '  ({}): {} containing: [{} of size {}{}]'.format(key, kind, dtype, size, device)
    return '  ({}): Object of type: {}'.format(key, type(p).__name__)


def _as_parameter(p):
    if isinstance(p, torch.Tensor) and not _is_parameter(p):
        return Parameter(p)
    return p


class ParameterList(Module):
    def __init__(self, values=None):
        super().__init__()
        self._size = 0
        if values is not None:
            self.extend(values)

    def __getitem__(self, idx):
        if isinstance(idx, slice):
            return ParameterList([getattr(self, str(i)) for i in range(self._size)][idx])
        return getattr(self, str(_check_index(idx, self._size)))

    def __setitem__(self, idx, param):
        setattr(self, str(_check_index(idx, self._size)), _as_parameter(param))

    def __len__(self):
        return self._size

    def __iter__(self):
        return iter([getattr(self, str(i)) for i in range(self._size)])

    def append(self, value):
        setattr(self, str(self._size), _as_parameter(value))
        self._size += 1
        return self

    def extend(self, values):
        for value in values:
            self.append(value)
        return self

    def extra_repr(self):
        return '\n'.join(_param_line(str(k), p) for k, p in enumerate(self))


class ParameterDict(Module):
    def __init__(self, parameters=None):
        super().__init__()
        self._keys = []
        if parameters is not None:
            self.update(parameters)

    def __getitem__(self, key):
        return getattr(self, key)

    def __setitem__(self, key, value):
        if key not in self._keys:
            self._keys.append(key)
        setattr(self, key, _as_parameter(value))

    def __delitem__(self, key):
        self._keys.remove(key)
        delattr(self, key)

    def __contains__(self, key):
        return key in self._keys

    def __len__(self):
        return len(self._keys)

    def __iter__(self):
        return iter(list(self._keys))

    def keys(self):
        return list(self._keys)

    def values(self):
        return [self[k] for k in self._keys]

    def items(self):
        return [(k, self[k]) for k in self._keys]

    def get(self, key, default=None):
        return self[key] if key in self._keys else default

    def pop(self, key):
        value = self[key]
        del self[key]
        return value

    def update(self, parameters):
        pairs = parameters.items() if hasattr(parameters, 'items') else parameters
        for key, value in pairs:
            self[key] = value

    def extra_repr(self):
        return '\n'.join(_param_line(k, self[k], True) for k in self._keys)


# ---- convolution, pooling, normalization, padding (ops in core/ops/conv.cpp, pool.cpp, norm.cpp) ----

def _ntuple(x, n):
    if isinstance(x, int):
        return tuple([x] * n)
    return tuple(x)


class _ConvNd(Module):
    def __init__(self, in_channels, out_channels, kernel_size, stride, padding, dilation, groups, bias,
                 padding_mode, n, transposed=False, output_padding=0):
        super().__init__()
        if groups <= 0:
            raise ValueError('groups must be a positive integer')
        if in_channels % groups != 0:
            raise ValueError('in_channels must be divisible by groups')
        if out_channels % groups != 0:
            raise ValueError('out_channels must be divisible by groups')
        valid_padding_strings = ['same', 'valid']
        if isinstance(padding, str):
            if padding not in valid_padding_strings:
                raise ValueError('Invalid padding string ' + repr(padding) + ', should be one of ' +
                                 str(valid_padding_strings))
            if padding == 'same' and _ntuple(stride, n) != _ntuple(1, n):
                raise ValueError("padding='same' is not supported for strided convolutions")
        if padding_mode not in ['zeros', 'reflect', 'replicate', 'circular']:
            raise ValueError("padding_mode must be one of ['zeros', 'reflect', 'replicate', 'circular'], but got "
                             "padding_mode='{}'".format(padding_mode))
        self.in_channels = in_channels
        self.out_channels = out_channels
        self.kernel_size = _ntuple(kernel_size, n)
        self.stride = _ntuple(stride, n)
        self.padding = padding if isinstance(padding, str) else _ntuple(padding, n)
        self.dilation = _ntuple(dilation, n)
        self.transposed = transposed
        self.output_padding = _ntuple(output_padding, n)
        self.groups = groups
        self.padding_mode = padding_mode
        # F.pad's order for padding_mode != 'zeros': last dim first, each side.
        if isinstance(self.padding, str):
            rev = [0, 0] * n
            if padding == 'same':
                for d, k, i in zip(self.dilation, self.kernel_size, range(n - 1, -1, -1)):
                    total = d * (k - 1)
                    left = total // 2
                    rev[2 * i] = left
                    rev[2 * i + 1] = total - left
        else:
            rev = []
            for p in reversed(self.padding):
                rev.append(p)
                rev.append(p)
        self._reversed_padding_repeated_twice = rev
        if transposed:
            self.weight = Parameter(torch.empty([in_channels, out_channels // groups] + list(self.kernel_size)))
        else:
            self.weight = Parameter(torch.empty([out_channels, in_channels // groups] + list(self.kernel_size)))
        if bias:
            self.bias = Parameter(torch.empty(out_channels))
        else:
            self.register_parameter('bias', None)
        self.reset_parameters()

    def reset_parameters(self):
        init.kaiming_uniform_(self.weight, math.sqrt(5))
        if self.bias is not None:
            fan_in, _ = _calculate_fan_in_and_fan_out(self.weight)
            if fan_in != 0:
                bound = 1 / math.sqrt(fan_in)
                init.uniform_(self.bias, -bound, bound)

    def _conv_forward(self, input, weight, bias, conv):
        if self.padding_mode != 'zeros':
            return conv(F.pad(input, self._reversed_padding_repeated_twice, mode=self.padding_mode),
                        weight, bias, self.stride, 0, self.dilation, self.groups)
        return conv(input, weight, bias, self.stride, self.padding, self.dilation, self.groups)

    def extra_repr(self):
        n = len(self.kernel_size)
        s = '{}, {}, kernel_size={}, stride={}'.format(self.in_channels, self.out_channels, self.kernel_size,
                                                       self.stride)
        if self.padding != _ntuple(0, n):
            s += ', padding={}'.format(self.padding if not isinstance(self.padding, str) else self.padding)
        if self.dilation != _ntuple(1, n):
            s += ', dilation={}'.format(self.dilation)
        if self.output_padding != _ntuple(0, n):
            s += ', output_padding={}'.format(self.output_padding)
        if self.groups != 1:
            s += ', groups={}'.format(self.groups)
        if self.bias is None:
            s += ', bias=False'
        if self.padding_mode != 'zeros':
            s += ', padding_mode={}'.format(self.padding_mode)
        return s


class Conv1d(_ConvNd):
    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, dilation=1, groups=1,
                 bias=True, padding_mode='zeros', device=None, dtype=None):
        super().__init__(in_channels, out_channels, kernel_size, stride, padding, dilation, groups, bias,
                         padding_mode, 1)

    def forward(self, input):
        return self._conv_forward(input, self.weight, self.bias, F.conv1d)


class Conv2d(_ConvNd):
    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, dilation=1, groups=1,
                 bias=True, padding_mode='zeros', device=None, dtype=None):
        super().__init__(in_channels, out_channels, kernel_size, stride, padding, dilation, groups, bias,
                         padding_mode, 2)

    def forward(self, input):
        return self._conv_forward(input, self.weight, self.bias, F.conv2d)


class Conv3d(_ConvNd):
    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, dilation=1, groups=1,
                 bias=True, padding_mode='zeros', device=None, dtype=None):
        super().__init__(in_channels, out_channels, kernel_size, stride, padding, dilation, groups, bias,
                         padding_mode, 3)

    def forward(self, input):
        return self._conv_forward(input, self.weight, self.bias, F.conv3d)


# conv_transpose1d/2d/3d as the convolution they are the gradient of: the input
# spread out by the stride (zeros between its elements), padded by
# dilation * (k - 1) - padding (+ output_padding at the end), convolved with
# the kernel flipped and its in/out channels swapped within each group.
_CONVS = {}  # n -> F.conv{n}d, filled below


def _check_conv_transpose(input, weight, groups, stride, output_padding, dilation, n):
    # aten's checks, in its words: rank, channels, then output_padding.
    if input.dim() != n + 1 and input.dim() != n + 2:
        raise RuntimeError('Expected {}D (unbatched) or {}D (batched) input to conv_transpose{}d, but got input of '
                           'size: {}'.format(n + 1, n + 2, n, list(input.shape)))
    batched = input if input.dim() == n + 2 else input.unsqueeze(0)
    if weight.dim() == n + 2 and batched.shape[1] != weight.shape[0]:
        raise RuntimeError('Given transposed=1, weight of size {}, expected input{} to have {} channels, but got {} '
                           'channels instead'.format(list(weight.shape), list(batched.shape), weight.shape[0],
                                                     batched.shape[1]))
    if any(op >= st and op >= d for op, st, d in zip(output_padding, stride, dilation)):
        if n == 3:
            names = ['output_padding', 'stride', 'dilation']
            parts = []
            for name, vals in zip(names, [output_padding, stride, dilation]):
                for axis, v in zip(['depth', 'height', 'width'], vals):
                    parts.append('{}_{}: {}'.format(name, axis, v))
            raise RuntimeError('output padding must be smaller than either stride or dilation, but got ' +
                               ' '.join(parts))
        for op, st, d in zip(output_padding, stride, dilation):
            if op >= st and op >= d:
                raise RuntimeError('output padding must be smaller than either stride or dilation, but got '
                                   'output_padding: {}, stride: {}, dilation: {}'.format(op, st, d))


def _conv_transpose(input, weight, bias, stride, padding, output_padding, groups, dilation, n):
    stride, padding = _ntuple(stride, n), _ntuple(padding, n)
    output_padding, dilation = _ntuple(output_padding, n), _ntuple(dilation, n)
    _check_conv_transpose(input, weight, groups, stride, output_padding, dilation, n)
    spatial = list(input.shape[-n:])
    x = input
    if any(st != 1 for st in stride):
        grown = [(size - 1) * st + 1 for size, st in zip(spatial, stride)]
        x = input.new_zeros(list(input.shape[:-n]) + grown)
        x[(Ellipsis,) + tuple(slice(None, None, st) for st in stride)] = input
    pads = []
    for i in range(n - 1, -1, -1):
        k = weight.shape[2 + i]
        edge = dilation[i] * (k - 1) - padding[i]
        pads += [edge, edge + output_padding[i]]
    crop = [slice(None)] * x.dim()
    for i in range(n):
        lo, hi = pads[2 * (n - 1 - i)], pads[2 * (n - 1 - i) + 1]
        size = x.shape[x.dim() - n + i]
        crop[x.dim() - n + i] = slice(max(-lo, 0), size - max(-hi, 0))
    x = x[tuple(crop)]
    x = F.pad(x, [max(p, 0) for p in pads])
    cin, cout_g = weight.shape[0], weight.shape[1]
    w = weight.reshape([groups, cin // groups, cout_g] + list(weight.shape[2:])).transpose(1, 2)
    w = w.reshape([groups * cout_g, cin // groups] + list(weight.shape[2:])).flip(list(range(2, 2 + n)))
    return _CONVS[n](x, w, bias, 1, 0, dilation, groups)


_CONVS.update({1: F.conv1d, 2: F.conv2d, 3: F.conv3d})
F.conv_transpose1d = lambda input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1, dilation=1: \
    _conv_transpose(input, weight, bias, stride, padding, output_padding, groups, dilation, 1)
F.conv_transpose2d = lambda input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1, dilation=1: \
    _conv_transpose(input, weight, bias, stride, padding, output_padding, groups, dilation, 2)
F.conv_transpose3d = lambda input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1, dilation=1: \
    _conv_transpose(input, weight, bias, stride, padding, output_padding, groups, dilation, 3)


class _ConvTransposeNd(_ConvNd):
    def __init__(self, in_channels, out_channels, kernel_size, stride, padding, output_padding, groups, bias,
                 dilation, padding_mode, n):
        if padding_mode != 'zeros':
            raise ValueError('Only "zeros" padding mode is supported for {}'.format(type(self).__name__))
        super().__init__(in_channels, out_channels, kernel_size, stride, padding, dilation, groups, bias,
                         padding_mode, n, True, output_padding)

    def _output_padding(self, input, output_size, n):
        # output_size picks, within the stride's ambiguity, which output length
        # the transposed conv produces; the excess over the smallest one is
        # the output_padding.
        if output_size is None:
            return self.output_padding
        lead = 2 if input.dim() == n + 2 else 1
        if len(output_size) == lead + n:
            output_size = output_size[lead:]
        if len(output_size) != n:
            raise ValueError('ConvTranspose{}D: for {}D input, output_size must have {} or {} elements (got {})'
                             .format(n, input.dim(), n, lead + n, len(output_size)))
        lows, highs = [], []
        for d in range(n):
            low = ((input.shape[d + lead] - 1) * self.stride[d] - 2 * self.padding[d] +
                   self.dilation[d] * (self.kernel_size[d] - 1) + 1)
            lows.append(low)
            highs.append(low + self.stride[d] - 1)
        for d in range(n):
            if output_size[d] < lows[d] or output_size[d] > highs[d]:
                raise ValueError('requested an output size of {}, but valid sizes range from {} to {} (for an input '
                                 'of {})'.format(output_size, lows, highs, input.size()[2:]))
        return [output_size[d] - lows[d] for d in range(n)]

    def forward(self, input, output_size=None):
        n = len(self.kernel_size)
        output_padding = self._output_padding(input, output_size, n)
        return _conv_transpose(input, self.weight, self.bias, self.stride, self.padding, output_padding,
                               self.groups, self.dilation, n)


class ConvTranspose1d(_ConvTransposeNd):
    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, output_padding=0, groups=1,
                 bias=True, dilation=1, padding_mode='zeros', device=None, dtype=None):
        super().__init__(in_channels, out_channels, kernel_size, stride, padding, output_padding, groups, bias,
                         dilation, padding_mode, 1)


class ConvTranspose2d(_ConvTransposeNd):
    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, output_padding=0, groups=1,
                 bias=True, dilation=1, padding_mode='zeros', device=None, dtype=None):
        super().__init__(in_channels, out_channels, kernel_size, stride, padding, output_padding, groups, bias,
                         dilation, padding_mode, 2)


class ConvTranspose3d(_ConvTransposeNd):
    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, output_padding=0, groups=1,
                 bias=True, dilation=1, padding_mode='zeros', device=None, dtype=None):
        super().__init__(in_channels, out_channels, kernel_size, stride, padding, output_padding, groups, bias,
                         dilation, padding_mode, 3)


class _MaxPoolNd(Module):
    def __init__(self, kernel_size, stride=None, padding=0, dilation=1, return_indices=False, ceil_mode=False):
        super().__init__()
        self.kernel_size = kernel_size
        self.stride = stride if (stride is not None) else kernel_size
        self.padding = padding
        self.dilation = dilation
        self.return_indices = return_indices
        self.ceil_mode = ceil_mode

    def extra_repr(self):
        return 'kernel_size={}, stride={}, padding={}, dilation={}, ceil_mode={}'.format(
            self.kernel_size, self.stride, self.padding, self.dilation, self.ceil_mode)


class MaxPool1d(_MaxPoolNd):
    def forward(self, input):
        return F.max_pool1d(input, self.kernel_size, self.stride, self.padding, self.dilation,
                            ceil_mode=self.ceil_mode, return_indices=self.return_indices)


class MaxPool2d(_MaxPoolNd):
    def forward(self, input):
        return F.max_pool2d(input, self.kernel_size, self.stride, self.padding, self.dilation,
                            ceil_mode=self.ceil_mode, return_indices=self.return_indices)


class MaxPool3d(_MaxPoolNd):
    def forward(self, input):
        return F.max_pool3d(input, self.kernel_size, self.stride, self.padding, self.dilation,
                            ceil_mode=self.ceil_mode, return_indices=self.return_indices)


class AvgPool1d(Module):
    def __init__(self, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True):
        super().__init__()
        self.kernel_size = _ntuple(kernel_size, 1)
        self.stride = _ntuple(stride if stride is not None else kernel_size, 1)
        self.padding = _ntuple(padding, 1)
        self.ceil_mode = ceil_mode
        self.count_include_pad = count_include_pad

    def forward(self, input):
        return F.avg_pool1d(input, self.kernel_size, self.stride, self.padding, self.ceil_mode,
                            self.count_include_pad)

    def extra_repr(self):
        return 'kernel_size={}, stride={}, padding={}'.format(self.kernel_size, self.stride, self.padding)


class AvgPool2d(Module):
    def __init__(self, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True,
                 divisor_override=None):
        super().__init__()
        self.kernel_size = kernel_size
        self.stride = stride if (stride is not None) else kernel_size
        self.padding = padding
        self.ceil_mode = ceil_mode
        self.count_include_pad = count_include_pad
        self.divisor_override = divisor_override

    def forward(self, input):
        return F.avg_pool2d(input, self.kernel_size, self.stride, self.padding, self.ceil_mode,
                            self.count_include_pad, self.divisor_override)

    def extra_repr(self):
        return 'kernel_size={}, stride={}, padding={}'.format(self.kernel_size, self.stride, self.padding)


class AvgPool3d(AvgPool2d):
    def forward(self, input):
        return F.avg_pool3d(input, self.kernel_size, self.stride, self.padding, self.ceil_mode,
                            self.count_include_pad, self.divisor_override)


class AdaptiveAvgPool1d(Module):
    def __init__(self, output_size):
        super().__init__()
        self.output_size = output_size

    def forward(self, input):
        return F.adaptive_avg_pool1d(input, self.output_size)

    def extra_repr(self):
        return 'output_size={}'.format(self.output_size)


class AdaptiveAvgPool2d(AdaptiveAvgPool1d):
    def forward(self, input):
        return F.adaptive_avg_pool2d(input, self.output_size)


class AdaptiveAvgPool3d(AdaptiveAvgPool1d):
    def forward(self, input):
        return F.adaptive_avg_pool3d(input, self.output_size)


class _NormBase(Module):
    def __init__(self, num_features, eps=1e-5, momentum=0.1, affine=True, track_running_stats=True, device=None,
                 dtype=None, bias=True):
        super().__init__()
        self.num_features = num_features
        self.eps = eps
        self.momentum = momentum
        self.affine = affine
        self.track_running_stats = track_running_stats
        if self.affine:
            self.weight = Parameter(torch.empty(num_features))
            if bias:
                self.bias = Parameter(torch.empty(num_features))
            else:
                self.register_parameter('bias', None)
        else:
            self.register_parameter('weight', None)
            self.register_parameter('bias', None)
        if self.track_running_stats:
            self.register_buffer('running_mean', torch.zeros(num_features))
            self.register_buffer('running_var', torch.ones(num_features))
            self.register_buffer('num_batches_tracked', torch.tensor(0, dtype=torch.long))
        else:
            self.register_buffer('running_mean', None)
            self.register_buffer('running_var', None)
            self.register_buffer('num_batches_tracked', None)
        self.reset_parameters()

    def reset_running_stats(self):
        if self.track_running_stats:
            self.running_mean.zero_()
            self.running_var.fill_(1)
            self.num_batches_tracked.zero_()

    def reset_parameters(self):
        self.reset_running_stats()
        if self.affine:
            init.ones_(self.weight)
            if self.bias is not None:
                init.zeros_(self.bias)

    def extra_repr(self):
        # PyTorch 2.x's format (1.13 had no ", bias=...").
        return '{}, eps={}, momentum={}, affine={}, bias={}, track_running_stats={}'.format(
            self.num_features, self.eps, self.momentum, self.affine, self.bias is not None,
            self.track_running_stats)


class _BatchNorm(_NormBase):
    def forward(self, input):
        self._check_input_dim(input)
        if self.momentum is None:
            exponential_average_factor = 0.0
        else:
            exponential_average_factor = self.momentum
        if self.training and self.track_running_stats:
            if self.num_batches_tracked is not None:
                self.num_batches_tracked.add_(1)
                if self.momentum is None:
                    exponential_average_factor = 1.0 / float(self.num_batches_tracked)
        if self.training:
            bn_training = True
        else:
            bn_training = (self.running_mean is None) and (self.running_var is None)
        use_stats = not self.training or self.track_running_stats
        return F.batch_norm(input, self.running_mean if use_stats else None,
                            self.running_var if use_stats else None, self.weight, self.bias, bn_training,
                            exponential_average_factor, self.eps)


class BatchNorm1d(_BatchNorm):
    def _check_input_dim(self, input):
        if input.dim() != 2 and input.dim() != 3:
            raise ValueError('expected 2D or 3D input (got {}D input)'.format(input.dim()))


class BatchNorm2d(_BatchNorm):
    def _check_input_dim(self, input):
        if input.dim() != 4:
            raise ValueError('expected 4D input (got {}D input)'.format(input.dim()))


class BatchNorm3d(_BatchNorm):
    def _check_input_dim(self, input):
        if input.dim() != 5:
            raise ValueError('expected 5D input (got {}D input)'.format(input.dim()))


class _InstanceNorm(_NormBase):
    def __init__(self, num_features, eps=1e-5, momentum=0.1, affine=False, track_running_stats=False, device=None,
                 dtype=None, bias=True):
        super().__init__(num_features, eps, momentum, affine, track_running_stats, None, None, bias)

    def forward(self, input):
        if input.dim() == self._spatial + 1:
            return self.forward(input.unsqueeze(0)).squeeze(0)
        if input.dim() != self._spatial + 2:
            raise ValueError('expected {}D or {}D input (got {}D input)'.format(
                self._spatial + 1, self._spatial + 2, input.dim()))
        return F.instance_norm(input, self.running_mean, self.running_var, self.weight, self.bias,
                               self.training or not self.track_running_stats, self.momentum if self.momentum is not None else 0.0,
                               self.eps)


class InstanceNorm1d(_InstanceNorm):
    _spatial = 1


class InstanceNorm2d(_InstanceNorm):
    _spatial = 2


class InstanceNorm3d(_InstanceNorm):
    _spatial = 3


class GroupNorm(Module):
    def __init__(self, num_groups, num_channels, eps=1e-5, affine=True, device=None, dtype=None, bias=True):
        super().__init__()
        if num_channels % num_groups != 0:
            raise ValueError('num_channels ({}) must be divisible by num_groups ({})'.format(num_channels, num_groups))
        self.num_groups = num_groups
        self.num_channels = num_channels
        self.eps = eps
        self.affine = affine
        if self.affine:
            self.weight = Parameter(torch.ones(num_channels))
            if bias:
                self.bias = Parameter(torch.zeros(num_channels))
            else:
                self.register_parameter('bias', None)
        else:
            self.register_parameter('weight', None)
            self.register_parameter('bias', None)

    def reset_parameters(self):
        if self.affine:
            init.ones_(self.weight)
            if self.bias is not None:
                init.zeros_(self.bias)

    def forward(self, input):
        return F.group_norm(input, self.num_groups, self.weight, self.bias, self.eps)

    def extra_repr(self):
        # PyTorch 2.x's format (1.13 had no ", bias=...").
        return '{}, {}, eps={}, affine={}, bias={}'.format(
            self.num_groups, self.num_channels, self.eps, self.affine, self.bias is not None)


class Dropout1d(Dropout):
    def forward(self, input):
        return F.dropout1d(input, self.p, self.training, self.inplace)


class Dropout2d(Dropout):
    def forward(self, input):
        return F.dropout2d(input, self.p, self.training, self.inplace)


class _PadNd(Module):
    def __init__(self, padding, n, mode, value=0.0):
        super().__init__()
        self.padding = _ntuple(padding, 2 * n)
        self.mode = mode
        self.value = value

    def forward(self, input):
        if self.mode == 'constant':
            return F.pad(input, list(self.padding), 'constant', self.value)
        return F.pad(input, list(self.padding), self.mode)

    def extra_repr(self):
        if self.mode == 'constant' and type(self).__name__.startswith('Constant'):
            return 'padding={}, value={}'.format(self.padding, self.value)
        return '{}'.format(self.padding)


class ZeroPad1d(_PadNd):
    def __init__(self, padding):
        super().__init__(padding, 1, 'constant')


class ZeroPad2d(_PadNd):
    def __init__(self, padding):
        super().__init__(padding, 2, 'constant')


class ConstantPad1d(_PadNd):
    def __init__(self, padding, value):
        super().__init__(padding, 1, 'constant', value)


class ConstantPad2d(_PadNd):
    def __init__(self, padding, value):
        super().__init__(padding, 2, 'constant', value)


class ReflectionPad1d(_PadNd):
    def __init__(self, padding):
        super().__init__(padding, 1, 'reflect')


class ReflectionPad2d(_PadNd):
    def __init__(self, padding):
        super().__init__(padding, 2, 'reflect')


class ReplicationPad1d(_PadNd):
    def __init__(self, padding):
        super().__init__(padding, 1, 'replicate')


class ReplicationPad2d(_PadNd):
    def __init__(self, padding):
        super().__init__(padding, 2, 'replicate')


class Upsample(Module):
    def __init__(self, size=None, scale_factor=None, mode='nearest', align_corners=None, recompute_scale_factor=None):
        super().__init__()
        self.name = type(self).__name__
        self.size = size
        if isinstance(scale_factor, tuple):
            self.scale_factor = tuple([float(f) for f in scale_factor])
        else:
            self.scale_factor = float(scale_factor) if scale_factor else None
        self.mode = mode
        self.align_corners = align_corners
        self.recompute_scale_factor = recompute_scale_factor

    def forward(self, input):
        return F.interpolate(input, self.size, self.scale_factor, self.mode, self.align_corners,
                             recompute_scale_factor=self.recompute_scale_factor)

    def extra_repr(self):
        if self.scale_factor is not None:
            info = 'scale_factor=' + repr(self.scale_factor)
        else:
            info = 'size=' + repr(self.size)
        info += ', mode=' + repr(self.mode)
        return info


class AdaptiveMaxPool1d(Module):
    def __init__(self, output_size, return_indices=False):
        super().__init__()
        self.output_size = output_size
        self.return_indices = return_indices

    def forward(self, input):
        return F.adaptive_max_pool1d(input, self.output_size, self.return_indices)

    def extra_repr(self):
        return 'output_size={}'.format(self.output_size)


class AdaptiveMaxPool2d(AdaptiveMaxPool1d):
    def forward(self, input):
        return F.adaptive_max_pool2d(input, self.output_size, self.return_indices)


class AdaptiveMaxPool3d(AdaptiveMaxPool1d):
    def forward(self, input):
        return F.adaptive_max_pool3d(input, self.output_size, self.return_indices)


# ---- RMSNorm, Softmax2d, Gumbel-softmax, multi-label soft margin, fixed-mode upsampling ----

def _rms_norm(input, normalized_shape, weight=None, eps=None):
    if isinstance(normalized_shape, int):
        normalized_shape = (normalized_shape,)
    n = len(normalized_shape)
    if tuple(input.shape[input.dim() - n:]) != tuple(normalized_shape):
        raise RuntimeError(f"Given normalized_shape={list(normalized_shape)}, expected input with shape "
                           f"[*, {', '.join(str(s) for s in normalized_shape)}], but got input of size"
                           f"{list(input.shape)}")
    if eps is None:
        eps = torch.finfo(input.dtype if input.dtype == torch.float64 else torch.float32).eps
    # ATen's composite: the mean of squares over the normalized dims, in float32
    # at least, then the input times its reciprocal square root.
    x = input if input.dtype in (torch.float32, torch.float64) else input.float()
    dims = [input.dim() - 1 - i for i in range(n)]
    result = x.mul(torch.rsqrt(x.pow(2).mean(dims, keepdim=True).add(eps))).type_as(input)
    return result if weight is None else result.mul(weight)


F.rms_norm = _rms_norm


class RMSNorm(Module):
    def __init__(self, normalized_shape, eps=None, elementwise_affine=True, device=None, dtype=None):
        super().__init__()
        _init_affine_norm(self, normalized_shape, eps, elementwise_affine, None)  # no bias

    def reset_parameters(self):
        if self.elementwise_affine:
            init.ones_(self.weight)

    def forward(self, x):
        return F.rms_norm(x, self.normalized_shape, self.weight, self.eps)

    def extra_repr(self):
        return '{}, eps={}, elementwise_affine={}'.format(self.normalized_shape, self.eps, self.elementwise_affine)


class Softmax2d(Module):
    def forward(self, input):
        if input.dim() not in (3, 4):
            raise ValueError(f"Softmax2d: expected input to be 3D or 4D, got {input.dim()}D instead")
        return F.softmax(input, -3)


def _gumbel_softmax(logits, tau=1, hard=False, eps=1e-10, dim=-1):
    gumbels = -torch.empty_like(logits).exponential_().log()
    y_soft = ((logits + gumbels) / tau).softmax(dim)
    if not hard:
        return y_soft
    index = y_soft.max(dim, keepdim=True)[1]
    y_hard = torch.zeros_like(logits).scatter_(dim, index, 1.0)
    return y_hard - y_soft.detach() + y_soft


F.gumbel_softmax = _gumbel_softmax


def _multilabel_soft_margin_loss(input, target, weight=None, size_average=None, reduce=None, reduction='mean'):
    if size_average is not None or reduce is not None:
        reduction = _legacy_reduction(size_average, reduce)
    loss = -(target * F.logsigmoid(input) + (1 - target) * F.logsigmoid(-input))
    if weight is not None:
        loss = loss * weight
    class_dim = input.dim() - 1
    loss = loss.sum(dim=class_dim) / input.size(class_dim)
    if reduction == 'none':
        return loss
    if reduction == 'mean':
        return loss.mean()
    if reduction == 'sum':
        return loss.sum()
    raise ValueError(f"{reduction} is not a valid value for reduction")


F.multilabel_soft_margin_loss = _multilabel_soft_margin_loss


class MultiLabelSoftMarginLoss(_WeightedLoss):
    def forward(self, input, target):
        return F.multilabel_soft_margin_loss(input, target, weight=self.weight, reduction=self.reduction)


class UpsamplingNearest2d(Upsample):
    def __init__(self, size=None, scale_factor=None):
        super().__init__(size, scale_factor, mode='nearest')


class UpsamplingBilinear2d(Upsample):
    def __init__(self, size=None, scale_factor=None):
        super().__init__(size, scale_factor, mode='bilinear', align_corners=True)


# ---- RReLU, in-place activation variants, alpha and 3-d feature dropout ----

_ATEN_TYPE_NAMES = {torch.int64: 'Long', torch.int32: 'Int', torch.int16: 'Short', torch.int8: 'Char',
                    torch.uint8: 'Byte', torch.bool: 'Bool', torch.float32: 'Float', torch.float64: 'Double',
                    torch.float16: 'Half', torch.bfloat16: 'BFloat16'}


def _check_floating(input, kernel):
    if not input.is_floating_point():
        raise NotImplementedError(f'"{kernel}" not implemented for \'{_ATEN_TYPE_NAMES[input.dtype]}\'')


def _rrelu(input, lower=1.0 / 8, upper=1.0 / 3, training=False, inplace=False):
    if lower > upper:
        raise RuntimeError('Lower bound should be less than or equal to the upper bound')
    if not training:
        _check_floating(input, 'leaky_relu_cpu')
        out = F.leaky_relu(input, (lower + upper) / 2, inplace)
    else:
        _check_floating(input, 'rrelu_with_noise_out_cpu')
        # ATen's CPU kernel walks the contiguous input and draws one
        # uniform_real_distribution<double>(lower, upper) per element <= 0, its
        # bounds first rounded to the input's compute type (float below double):
        # a float64 uniform_ over the non-positive elements draws the same numbers.
        neg = input.detach() <= 0
        lo, hi = lower, upper
        if input.dtype != torch.float64:
            lo = torch.tensor(lower, dtype=torch.float32).item()
            hi = torch.tensor(upper, dtype=torch.float32).item()
        r = torch.empty(int(neg.sum()), dtype=torch.float64).uniform_(lo, hi)
        noise = torch.ones_like(input)
        noise[neg] = r.to(input.device, input.dtype)
        out = input.mul_(noise) if inplace else input * noise
    return torch._C._set_grad_fn_name(out, 'RreluWithNoiseBackward1' if inplace else 'RreluWithNoiseBackward0')


def _rrelu_(input, lower=1.0 / 8, upper=1.0 / 3, training=False):
    return _rrelu(input, lower, upper, training, True)


F.rrelu = _rrelu
F.rrelu_ = _rrelu_
torch.rrelu = _rrelu
torch.rrelu_ = _rrelu_


# F.elu_ and friends are their functions with inplace=True, as in PyTorch.
def _elu_(input, alpha=1.0):
    return F.elu(input, alpha, True)


def _celu_(input, alpha=1.0):
    return F.celu(input, alpha, True)


def _selu_(input):
    return F.selu(input, True)


def _leaky_relu_(input, negative_slope=0.01):
    return F.leaky_relu(input, negative_slope, True)


def _hardtanh_(input, min_val=-1.0, max_val=1.0):
    return F.hardtanh(input, min_val, max_val, True)


def _threshold_(input, threshold, value):
    return F.threshold(input, threshold, value, True)


for _f in (_elu_, _celu_, _selu_, _leaky_relu_, _hardtanh_, _threshold_):
    setattr(F, _f.__name__[1:], _f)


class RReLU(Module):
    def __init__(self, lower=1.0 / 8, upper=1.0 / 3, inplace=False):
        super().__init__()
        self.lower = lower
        self.upper = upper
        self.inplace = inplace

    def forward(self, input):
        return F.rrelu(input, self.lower, self.upper, self.training, self.inplace)

    def extra_repr(self):
        return 'lower={}, upper={}{}'.format(self.lower, self.upper, _inplace_str(self.inplace))


def _check_dropout_p(p):
    if p < 0.0 or p > 1.0:
        raise ValueError(f'dropout probability has to be between 0 and 1, but got {p}')


# ATen's _dropout_impl for the feature and alpha variants: a Bernoulli(1 - p)
# noise over the input (or one per [N, C] channel), then for alpha dropout the
# affine correction that keeps SELU's mean and variance.
def _dropout_impl(input, p, train, feature, alpha, inplace):
    if p == 0 or not train or input.numel() == 0:
        return input
    if p == 1:
        zero = torch.zeros((), dtype=input.dtype, device=input.device)
        return input.mul_(zero) if inplace else input * zero
    if feature:
        if input.dim() < 2:
            raise RuntimeError('Feature dropout requires at least 2 dimensions in the input')
        noise = input.new_empty([input.size(0), input.size(1)] + [1] * (input.dim() - 2))
    else:
        noise = torch.empty_like(input)
    noise.bernoulli_(1 - p)
    if not alpha:
        noise.div_(1 - p)
        return input.mul_(noise) if inplace else input * noise
    a_const = 1.7580993408473766
    a = 1.0 / math.sqrt((a_const * a_const * p + 1) * (1 - p))
    b = noise.add(-1).mul_(a_const * a).add_(a_const * a * p)
    noise.mul_(a)
    return (input.mul_(noise) if inplace else input * noise).add_(b)


def _alpha_dropout(input, p=0.5, training=False, inplace=False):
    _check_dropout_p(p)
    return _dropout_impl(input, p, training, False, True, inplace)


def _feature_alpha_dropout(input, p=0.5, training=False, inplace=False):
    _check_dropout_p(p)
    return _dropout_impl(input, p, training, True, True, inplace)


def _dropout3d(input, p=0.5, training=True, inplace=False):
    _check_dropout_p(p)
    batched = input.dim() == 5
    if not batched:
        input = input.unsqueeze_(0) if inplace else input.unsqueeze(0)
    result = _dropout_impl(input, p, training, True, False, inplace)
    if not batched:
        result = result.squeeze_(0) if inplace else result.squeeze(0)
    return result


F.alpha_dropout = _alpha_dropout
F.feature_alpha_dropout = _feature_alpha_dropout
F.dropout3d = _dropout3d


class AlphaDropout(Dropout):
    def forward(self, input):
        return F.alpha_dropout(input, self.p, self.training)


class FeatureAlphaDropout(Dropout):
    def forward(self, input):
        return F.feature_alpha_dropout(input, self.p, self.training)


class Dropout3d(Dropout):
    def forward(self, input):
        return F.dropout3d(input, self.p, self.training, self.inplace)


# ---- power-average pooling, margin losses, channel shuffle ----

def _lp_pool(input, norm_type, kernel_size, stride, ceil_mode, n):
    if isinstance(norm_type, (int, float)):
        if norm_type == 0:
            raise ValueError(f'norm_type must be a non-zero value, but got {norm_type}')
        max_pool = F.max_pool1d if n == 1 else F.max_pool2d
        if norm_type == float('inf'):
            return max_pool(input.abs(), kernel_size, stride, 0, 1, ceil_mode)
        if norm_type == -float('inf'):
            return -max_pool(-input.abs(), kernel_size, stride, 0, 1, ceil_mode)
    avg_pool = F.avg_pool1d if n == 1 else F.avg_pool2d
    out = avg_pool(input.pow(norm_type), kernel_size, kernel_size if stride is None else stride, 0, ceil_mode)
    window = 1
    for k in _ntuple(kernel_size, n):
        window *= k
    return (torch.sign(out) * F.relu(torch.abs(out))).mul(window).pow(1.0 / norm_type)


def _lp_pool1d(input, norm_type, kernel_size, stride=None, ceil_mode=False):
    return _lp_pool(input, norm_type, kernel_size, stride, ceil_mode, 1)


def _lp_pool2d(input, norm_type, kernel_size, stride=None, ceil_mode=False):
    return _lp_pool(input, norm_type, kernel_size, stride, ceil_mode, 2)


class _LPPoolNd(Module):
    def __init__(self, norm_type, kernel_size, stride=None, ceil_mode=False):
        super().__init__()
        self.norm_type = norm_type
        self.kernel_size = kernel_size
        self.stride = stride
        self.ceil_mode = ceil_mode

    def extra_repr(self):
        return 'norm_type={norm_type}, kernel_size={kernel_size}, stride={stride}, ceil_mode={ceil_mode}'.format(
            norm_type=self.norm_type, kernel_size=self.kernel_size, stride=self.stride, ceil_mode=self.ceil_mode)


class LPPool1d(_LPPoolNd):
    def forward(self, input):
        return F.lp_pool1d(input, float(self.norm_type), self.kernel_size, self.stride, self.ceil_mode)


class LPPool2d(_LPPoolNd):
    def forward(self, input):
        return F.lp_pool2d(input, float(self.norm_type), self.kernel_size, self.stride, self.ceil_mode)


def _reduction_of(size_average, reduce, reduction):
    if size_average is not None or reduce is not None:
        return _legacy_reduction(size_average, reduce)
    if reduction not in ('none', 'mean', 'sum'):
        raise ValueError(f'{reduction} is not a valid value for reduction')
    return reduction


def _reduce_loss(loss, reduction, name):
    if reduction == 'mean':
        loss = loss.mean()
    elif reduction == 'sum':
        loss = loss.sum()
    return torch._C._set_grad_fn_name(loss, name)


# ATen's shape rule for the two margin losses: a vector or matrix of scores,
# as [nframe, dim].
def _margin_loss_frames(input):
    nd = input.dim()
    if not ((nd == 2 and input.size(1) != 0) or (nd == 1 and input.size(0) != 0) or nd == 0):
        raise RuntimeError(f'Expected non-empty vector or matrix with optional 0-dim batch size, but got: '
                           f'{list(input.shape)}')
    if nd <= 1:
        return 1, 1 if nd == 0 else input.size(0)
    return input.size(0), input.size(1)


def _check_long_target(target):
    if target.dtype != torch.int64:
        raise RuntimeError(f'expected scalar type Long but found {_ATEN_TYPE_NAMES[target.dtype]}')


# Each sample's loss is the mean over the other classes d of
# max(0, margin - x[y] + x[d]) ** p, weighted by weight[y].
def _multi_margin_loss(input, target, p=1, margin=1.0, weight=None, size_average=None, reduce=None,
                       reduction='mean'):
    reduction = _reduction_of(size_average, reduce, reduction)
    if p != 1 and p != 2:
        raise ValueError('only p == 1 and p == 2 supported')
    if weight is not None and weight.dim() != 1:
        raise ValueError('weight must be one-dimensional')
    nframe, dim = _margin_loss_frames(input)
    if not (target.dim() <= 1 and target.numel() == nframe):
        raise RuntimeError(f'multi_margin_loss: target tensor should be 1-D with size equal to the number of input '
                           f'samples (batch size). Expected target size [{nframe}], but got {list(target.shape)}. '
                           f'Input has shape {list(input.shape)}.')
    if weight is not None and weight.numel() != dim:
        raise RuntimeError(f'inconsistent weight size, expected {dim} but got {list(weight.shape)}')
    _check_long_target(target)
    t = target.reshape(nframe, 1)
    if bool(((t < 0) | (t >= dim)).any()):
        raise RuntimeError('target out of range')
    x = input.reshape(nframe, dim)
    z = margin - x.gather(1, t) + x
    # Strictly positive terms, the target's own class left out, as ATen's loop.
    keep = (z > 0) & (torch.arange(dim, device=input.device).unsqueeze(0) != t)
    h = torch.where(keep, z if p == 1 else z * z, 0.0)
    if weight is not None:
        h = h * weight[t]
    loss = h.sum(1) / dim
    if reduction == 'none' and target.dim() == 0:
        loss = loss.reshape(())
    return _reduce_loss(loss, reduction, 'MultiMarginLossBackward0')


# Each sample's targets are the leading non-negative entries of its row of
# target; its loss sums max(0, 1 - x[j] + x[d]) over those j and the
# non-target classes d, divided by the number of classes.
def _multilabel_margin_loss(input, target, size_average=None, reduce=None, reduction='mean'):
    reduction = _reduction_of(size_average, reduce, reduction)
    nframe, dim = _margin_loss_frames(input)
    if input.dim() <= 1:
        ok = target.dim() <= 1 and target.numel() == dim
    else:
        ok = target.dim() == 2 and target.size(0) == nframe and target.size(1) == dim
    if not ok:
        raise RuntimeError(f'inconsistent target size: {list(target.shape)} for input of size: {list(input.shape)}')
    _check_long_target(target)
    t = target.reshape(nframe, dim)
    if bool(((t < -1) | (t >= dim)).any()):
        raise RuntimeError("argument #2 'target' is out of range")
    valid = (t >= 0).to(torch.int64).cumprod(1) > 0
    tc = t.clamp_min(0)
    is_target = ((tc.unsqueeze(2) == torch.arange(dim, device=input.device)) & valid.unsqueeze(2)).any(1)
    x = input.reshape(nframe, dim)
    z = 1 - x.gather(1, tc).unsqueeze(2) + x.unsqueeze(1)
    keep = valid.unsqueeze(2) & (~is_target).unsqueeze(1) & (z > 0)
    loss = torch.where(keep, z, 0.0).sum((1, 2)) / dim
    if reduction == 'none' and target.dim() <= 1:
        loss = loss.reshape(())
    return _reduce_loss(loss, reduction, 'MultilabelMarginLossBackward0')


class MultiMarginLoss(_WeightedLoss):
    def __init__(self, p=1, margin=1.0, weight=None, size_average=None, reduce=None, reduction='mean'):
        super().__init__(weight, size_average, reduce, reduction)
        if p != 1 and p != 2:
            raise ValueError('only p == 1 and p == 2 supported')
        if weight is not None and weight.dim() != 1:
            raise ValueError(f'MultiMarginLoss: expected weight to be None or 1D tensor, got {weight.dim()}D instead')
        self.p = p
        self.margin = margin

    def forward(self, input, target):
        return F.multi_margin_loss(input, target, p=self.p, margin=self.margin, weight=self.weight,
                                   reduction=self.reduction)


class MultiLabelMarginLoss(_Loss):
    def forward(self, input, target):
        return F.multilabel_margin_loss(input, target, reduction=self.reduction)


def _triplet_margin_with_distance_loss(anchor, positive, negative, *, distance_function=None, margin=1.0,
                                       swap=False, reduction='mean'):
    if reduction not in ('mean', 'sum', 'none'):
        raise ValueError(f'{reduction} is not a valid value for reduction')
    if margin <= 0:
        raise ValueError(f'margin must be greater than 0, got {margin}')
    a_dim, p_dim, n_dim = anchor.dim(), positive.dim(), negative.dim()
    if not (a_dim == p_dim and p_dim == n_dim):
        raise RuntimeError(f'The anchor, positive, and negative tensors are expected to have the same number of '
                           f'dimensions, but got: anchor {a_dim}D, positive {p_dim}D, and negative {n_dim}D inputs')
    if distance_function is None:
        distance_function = F.pairwise_distance
    dist_pos = distance_function(anchor, positive)
    dist_neg = distance_function(anchor, negative)
    if swap:
        dist_neg = torch.minimum(dist_neg, distance_function(positive, negative))
    loss = torch.clamp_min(margin + dist_pos - dist_neg, 0)
    if reduction == 'sum':
        return torch.sum(loss)
    if reduction == 'mean':
        return torch.mean(loss)
    return loss


class TripletMarginWithDistanceLoss(_Loss):
    def __init__(self, *, distance_function=None, margin=1.0, swap=False, reduction='mean'):
        super().__init__(None, None, reduction)
        if margin <= 0:
            raise ValueError(f'TripletMarginWithDistanceLoss: expected margin to be greater than 0, got {margin} '
                             f'instead')
        self.distance_function = distance_function if distance_function is not None else PairwiseDistance()
        self.margin = margin
        self.swap = swap

    def forward(self, anchor, positive, negative):
        return F.triplet_margin_with_distance_loss(anchor, positive, negative,
                                                   distance_function=self.distance_function, margin=self.margin,
                                                   swap=self.swap, reduction=self.reduction)


# ATen's math_channel_shuffle: channels viewed as [groups, C / groups], transposed.
def _channel_shuffle(input, groups):
    if input.dim() <= 2:
        raise RuntimeError(f'channel_shuffle expects input with > 2 dims, but got input with sizes '
                           f'{list(input.shape)}')
    if groups <= 0:
        raise RuntimeError(f'Number of groups to divide channels in must be positive. Value of groups:{groups}')
    c = input.size(1)
    if c % groups != 0:
        raise RuntimeError(f'Number of channels must be divisible by groups. Got {c} channels and {groups} groups.')
    out = input.reshape(input.size(0), groups, c // groups, -1).permute(0, 2, 1, 3).reshape(input.shape)
    return torch._C._set_grad_fn_name(out, 'ChannelShuffleBackward0')


class ChannelShuffle(Module):
    def __init__(self, groups):
        super().__init__()
        self.groups = groups

    def forward(self, input):
        return F.channel_shuffle(input, self.groups)

    def extra_repr(self):
        return f'groups={self.groups}'


for _f in (_lp_pool1d, _lp_pool2d, _multi_margin_loss, _multilabel_margin_loss, _triplet_margin_with_distance_loss,
           _channel_shuffle):
    setattr(F, _f.__name__[1:], _f)
torch.channel_shuffle = _channel_shuffle


def _unravel_index(indices, shape):
    # Flat indices to coordinates: divide by each dim's stride in a contiguous
    # tensor of `shape`, then wrap (floor modulo, so -1 is the last element).
    if not isinstance(indices, torch.Tensor):
        indices = torch.tensor(indices)
    if indices.is_floating_point() or indices.dtype == torch.bool:
        raise TypeError("expected 'indices' to be integer dtype, but got {}".format(indices.dtype))
    if isinstance(shape, int):
        shape = (shape,)
    if not isinstance(shape, (list, tuple)):
        raise TypeError("expected 'shape' to be int or sequence of ints, but got {}".format(type(shape)))
    for s in shape:
        if not isinstance(s, int) or isinstance(s, bool):
            raise TypeError("expected 'shape' to be int or sequence of ints, but got {}".format(type(shape)))
    if any(s < 0 for s in shape):
        raise ValueError("'shape' cannot have negative values, but got {}".format(tuple(shape)))
    if len(shape) == 0:
        return ()
    strides = [1] * len(shape)
    for d in range(len(shape) - 2, -1, -1):
        strides[d] = strides[d + 1] * shape[d + 1]
    coords = indices.long().unsqueeze(-1).div(torch.tensor(strides), rounding_mode='floor') % torch.tensor(list(shape))
    return tuple(coords.unbind(-1))


torch.unravel_index = _unravel_index


# ---- max_unpool: scatters each pooled value back to where max_pool found it ----

def _unpool_output_size(input, kernel_size, stride, padding, output_size):
    n = len(kernel_size)
    default_size = [(input.size(input.dim() - n + d) - 1) * stride[d] + kernel_size[d] - 2 * padding[d]
                    for d in range(n)]
    if output_size is None:
        ret = default_size
    else:
        if len(output_size) == n + 2:
            output_size = output_size[2:]
        if len(output_size) != n:
            raise ValueError(f"output_size should be a sequence containing {n} or {n + 2} elements, but it has a "
                             f"length of '{len(output_size)}'")
        for d in range(n):
            min_size = default_size[d] - stride[d]
            max_size = default_size[d] + stride[d]
            if not (min_size < output_size[d] < max_size):
                raise ValueError(f'invalid output_size "{output_size}" (dim {d} must be between {min_size} and '
                                 f'{max_size})')
        ret = output_size
    for d in range(n):
        if ret[d] < 0:
            raise ValueError(f'max_unpooling: output_size must contain non-negative spatial dimensions, but got '
                             f'output_size[{d}]={ret[d]}')
    return list(ret)


def _max_unpool2d_kernel(input, indices, output_size):
    if indices.dtype != torch.int64:
        raise RuntimeError(f'elements in indices should be type int64 but got: {_ATEN_TYPE_NAMES[indices.dtype]}')
    if input.dim() not in (3, 4):
        raise RuntimeError(f'Input to max_unpooling2d should be a 3d or 4d Tensor, but got a tensor with '
                           f'{input.dim()} dimensions.')
    if input.shape != indices.shape:
        raise RuntimeError(f'Expected shape of indices to be same as that of the input tensor ({list(input.shape)}) '
                           f'but got indices tensor with shape: {list(indices.shape)}')
    for d in range(1, input.dim()):
        if input.size(d) == 0:
            raise RuntimeError(f'max_unpooling2d_forward_out_cpu(): Expected input to have non-zero size for '
                               f'non-batch dimensions, but got {list(input.shape)} with dimension {d} being empty.')
    oh, ow = output_size
    flat = indices.flatten(-2)
    bad = (flat < 0) | (flat >= oh * ow)
    if oh * ow > 0 and bool(bad.any()):
        # ATen's loop keeps going and reports the last bad index it met.
        raise RuntimeError(f'Found an invalid max index: {int(flat[bad][-1])} (output volumes are of size '
                           f'{oh}x{ow})')
    lead = list(input.shape)[:-2]
    if oh * ow > 0:
        out = input.new_zeros(lead + [oh * ow]).scatter(-1, flat, input.flatten(-2))
    else:
        out = input.flatten(-2).narrow(-1, 0, 0)
    return torch._C._set_grad_fn_name(out.view(lead + [oh, ow]), 'MaxUnpool2DBackward0')


def _max_unpool(input, indices, kernel_size, stride, padding, output_size, n):
    kernel_size = _ntuple(kernel_size, n)
    stride = kernel_size if stride is None else _ntuple(stride, n)
    size = _unpool_output_size(input, kernel_size, stride, _ntuple(padding, n), output_size)
    if n == 2:
        return _max_unpool2d_kernel(input, indices, size)
    return _max_unpool2d_kernel(input.unsqueeze(-1), indices.unsqueeze(-1), size + [1]).squeeze(-1)


def _max_unpool1d(input, indices, kernel_size, stride=None, padding=0, output_size=None):
    return _max_unpool(input, indices, kernel_size, stride, padding, output_size, 1)


def _max_unpool2d(input, indices, kernel_size, stride=None, padding=0, output_size=None):
    return _max_unpool(input, indices, kernel_size, stride, padding, output_size, 2)


F.max_unpool1d = _max_unpool1d
F.max_unpool2d = _max_unpool2d


class _MaxUnpoolNd(Module):
    def __init__(self, kernel_size, stride, padding, n):
        super().__init__()
        self.kernel_size = _ntuple(kernel_size, n)
        self.stride = _ntuple(stride if stride is not None else kernel_size, n)
        self.padding = _ntuple(padding, n)

    def extra_repr(self):
        return f'kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}'


class MaxUnpool1d(_MaxUnpoolNd):
    def __init__(self, kernel_size, stride=None, padding=0):
        super().__init__(kernel_size, stride, padding, 1)

    def forward(self, input, indices, output_size=None):
        return F.max_unpool1d(input, indices, self.kernel_size, self.stride, self.padding, output_size)


class MaxUnpool2d(_MaxUnpoolNd):
    def __init__(self, kernel_size, stride=None, padding=0):
        super().__init__(kernel_size, stride, padding, 2)

    def forward(self, input, indices, output_size=None):
        return F.max_unpool2d(input, indices, self.kernel_size, self.stride, self.padding, output_size)


# ---- affine_grid and 2-D / 3-D grid_sample (spatial transformers) ----

def _linspace_from_neg_one(theta, num_steps, align_corners):
    if num_steps <= 1:
        return torch.tensor(0, dtype=theta.dtype, device=theta.device)
    r = torch.linspace(-1, 1, num_steps, dtype=theta.dtype, device=theta.device)
    return r if align_corners else r * (num_steps - 1) / num_steps


def _affine_grid(theta, size, align_corners=None):
    if align_corners is None:
        align_corners = False
    if not theta.is_floating_point():
        raise ValueError(f'Expected theta to have floating point type, but got {theta.dtype}')
    if len(size) == 4:
        if theta.dim() != 3 or theta.shape[-2] != 2 or theta.shape[-1] != 3:
            raise ValueError(f'Expected a batch of 2D affine matrices of shape Nx2x3 for size {size}. '
                             f'Got {theta.shape}.')
    elif len(size) == 5:
        if theta.dim() != 3 or theta.shape[-2] != 3 or theta.shape[-1] != 4:
            raise ValueError(f'Expected a batch of 3D affine matrices of shape Nx3x4 for size {size}. '
                             f'Got {theta.shape}.')
    else:
        raise NotImplementedError(f'affine_grid only supports 4D and 5D sizes, for 2D and 3D affine transforms, '
                                  f'respectively. Got size {size}.')
    if not (align_corners and min(size[2:]) == 1) and min(size) <= 0:
        raise ValueError(f'Expected non-zero, positive output size. Got {size}')
    n, spatial = size[0], list(size[2:])
    d = len(spatial)
    # ATen's base grid: rows (x, y[, z], 1) over the output pixels (x along the
    # last dimension), times theta^T.
    base = theta.new_empty(n, *spatial, d + 1)
    for k in range(d):
        steps = _linspace_from_neg_one(theta, spatial[d - 1 - k], align_corners)
        base.select(-1, k).copy_(steps.view([-1] + [1] * k) if steps.dim() else steps)
    base.select(-1, d).fill_(1)
    numel = 1
    for s_ in spatial:
        numel *= s_
    grid = base.view(n, numel, d + 1).bmm(theta.transpose(1, 2)).view(n, *spatial, d)
    return torch._C._set_grad_fn_name(grid, 'AffineGridGeneratorBackward0')


# One grid axis through ATen's vectorized CPU ComputeLocation: the grid
# coordinate in pixels, and the unnormalizing scale that is its gradient.
def _grid_unnormalize(coord, size, align_corners):
    if align_corners:
        return (coord + 1) * ((size - 1) / 2), (size - 1) / 2
    return (coord + 1) * (size / 2) - 0.5, size / 2


# ATen's compute_coordinates: the padding mode's reflection and clip, and the
# factor (1, -1, or 0 where a clip bound holds) they put on the gradient.
def _grid_pad_coord(x, size, padding_mode, align_corners):
    sign = torch.ones_like(x)
    if padding_mode == 'reflection':
        if align_corners and size <= 1:
            return torch.zeros_like(x), torch.zeros_like(x)
        low = 0.0 if align_corners else -0.5
        twice_span = 2 * (size - 1) if align_corners else 2 * size
        shifted = x - low
        a = shifted.abs()
        extra = a - (a / twice_span).trunc() * twice_span
        reflected = twice_span - extra
        flip = extra > reflected
        x = torch.where(flip, reflected, extra) + low
        sign = torch.where(flip != (shifted < 0), -1.0, 1.0)
    if padding_mode != 'zeros':
        lo = x.clamp_min(0)
        x = lo.clamp_max(size - 1)
        sign = torch.where((lo != 0) & (x != size - 1), sign, 0.0)
    return x, sign


def _grid_source_coord(coord, size, padding_mode, align_corners):
    x, scale = _grid_unnormalize(coord, size, align_corners)
    x, sign = _grid_pad_coord(x, size, padding_mode, align_corners)
    return x, sign * scale


# ATen's cubic convolution weights (A = -0.75) of the four taps at offsets
# -1..2 from floor(x), for t = x - floor(x).
def _cubic_coefficients(t):
    a = -0.75
    x0 = t + 1
    x3 = 2 - t
    x2 = 1 - t
    return [((a * x0 - 5 * a) * x0 + 8 * a) * x0 - 4 * a,
            ((a + 2) * t - (a + 3)) * t * t + 1,
            ((a + 2) * x2 - (a + 3)) * x2 * x2 + 1,
            ((a * x3 - 5 * a) * x3 + 8 * a) * x3 - 4 * a]


def _with_grid_grad(value, grid, mult):
    # The exact forward value, with d value / d grid = mult.
    if not grid.requires_grad:
        return value
    return value + (grid - grid.detach()) * mult


# ATen's dtype checks, in the words of the CPU kernel that makes them.
def _check_grid_sample_dtypes(input, grid, kernel):
    if not input.is_floating_point():
        raise NotImplementedError(f'"{kernel}" not implemented for ' f"'{_ATEN_TYPE_NAMES[input.dtype]}'")
    if grid.dtype != input.dtype:
        raise RuntimeError(f'expected scalar type {_ATEN_TYPE_NAMES[input.dtype]} but found '
                           f'{_ATEN_TYPE_NAMES[grid.dtype]}')


def _grid_sample(input, grid, mode='bilinear', padding_mode='zeros', align_corners=None):
    if mode != 'bilinear' and mode != 'nearest' and mode != 'bicubic':
        raise ValueError(f"nn.functional.grid_sample(): expected mode to be 'bilinear', 'nearest' or 'bicubic', "
                         f"but got: '{mode}'")
    if padding_mode != 'zeros' and padding_mode != 'border' and padding_mode != 'reflection':
        raise ValueError(f"nn.functional.grid_sample(): expected padding_mode to be 'zeros', 'border', or "
                         f"'reflection', but got: '{padding_mode}'")
    if align_corners is None:
        align_corners = False
    if input.size(0) != grid.size(0):
        raise RuntimeError(f'grid_sampler(): expected grid and input to have same batch size, but got input with '
                           f'sizes {list(input.shape)} and grid with sizes {list(grid.shape)}')
    if grid.size(-1) != input.dim() - 2:
        raise RuntimeError(f'grid_sampler(): expected grid to have size {input.dim() - 2} in last dimension, but '
                           f'got grid with sizes {list(grid.shape)}')
    for d in range(2, input.dim()):
        if input.size(d) <= 0:
            raise RuntimeError(f'grid_sampler(): expected input to have non-empty spatial dimensions, but input '
                               f'has sizes {list(input.shape)} with dimension {d} being empty')
    if input.dim() == 5 and grid.dim() == 5:
        return _grid_sample_3d(input, grid, mode, padding_mode, align_corners)
    if input.dim() != 4 or grid.dim() != 4:
        raise RuntimeError(f'grid_sampler(): expected 4D input and grid with same number of dimensions, but got '
                           f'input with sizes {list(input.shape)} and grid with sizes {list(grid.shape)}')
    _check_grid_sample_dtypes(input, grid, 'grid_sampler_2d_cpu_kernel_impl')
    n, c, h, w = input.shape
    ho, wo = grid.size(1), grid.size(2)
    g = grid.detach().reshape(n, 1, ho * wo, 2)
    flat = input.reshape(n, c, h * w)

    def at(iy, ix):
        # A corner's values; 0 outside the image, as ATen's masked gather.
        inside = (ix > -1) & (ix < w) & (iy > -1) & (iy < h)
        idx = torch.where(inside, iy * w + ix, 0).expand(n, c, ho * wo)
        return torch.where(inside, flat.gather(2, idx), 0.0)

    if mode == 'bicubic':
        # Taps around the unpadded coordinate, each tap's own pixel through
        # the padding mode; the grid's gradient is the unnormalizing scale's alone.
        x, x_scale = _grid_unnormalize(g.select(-1, 0), w, align_corners)
        y, y_scale = _grid_unnormalize(g.select(-1, 1), h, align_corners)
        xy = torch.stack([x, y], -1)
        scales = torch.tensor([x_scale, y_scale], dtype=grid.dtype, device=grid.device)
        x, y = _with_grid_grad(xy, grid.reshape(n, 1, ho * wo, 2), scales).unbind(-1)
        x_f = x.detach().floor()
        y_f = y.detach().floor()
        cx = _cubic_coefficients(x - x_f)
        cy = _cubic_coefficients(y - y_f)
        cols = [_grid_pad_coord(x_f + (i - 1), w, padding_mode, align_corners)[0].long() for i in range(4)]
        out = None
        for j in range(4):
            row = _grid_pad_coord(y_f + (j - 1), h, padding_mode, align_corners)[0].long()
            v = at(row, cols[0]) * cx[0] + at(row, cols[1]) * cx[1] + at(row, cols[2]) * cx[2] \
                + at(row, cols[3]) * cx[3]
            out = v * cy[j] if out is None else out + v * cy[j]
        return torch._C._set_grad_fn_name(out.view(n, c, ho, wo), 'GridSampler2DBackward0')
    x, x_mult = _grid_source_coord(g.select(-1, 0), w, padding_mode, align_corners)
    y, y_mult = _grid_source_coord(g.select(-1, 1), h, padding_mode, align_corners)
    if mode == 'nearest':
        out = at(y.round().long(), x.round().long())
        if grid.requires_grad:
            # PyTorch's node reaches the grid, with a zero gradient.
            out = out * (1 + _with_grid_grad(torch.zeros_like(grid), grid, 0.0).sum())
    else:
        # Both coordinates from one tensor: unbind's backward stacks their
        # gradients, where two selects' would add a +0.0 to each (-0.0 + 0.0).
        xy = torch.stack([x, y], -1)
        x, y = _with_grid_grad(xy, grid.reshape(n, 1, ho * wo, 2), torch.stack([x_mult, y_mult], -1)).unbind(-1)
        x_w = x.detach().floor()
        y_n = y.detach().floor()
        wd = x - x_w
        e = 1 - wd
        nd = y - y_n
        s = 1 - nd
        ix_w = x_w.long()
        iy_n = y_n.long()
        out = at(iy_n, ix_w) * (s * e) + at(iy_n, ix_w + 1) * (s * wd) + at(iy_n + 1, ix_w) * (nd * e) \
            + at(iy_n + 1, ix_w + 1) * (nd * wd)
    return torch._C._set_grad_fn_name(out.view(n, c, ho, wo), 'GridSampler2DBackward0')


# Volumetric (5-D) grid_sample: trilinear or nearest, as ATen's grid_sampler_3d.
def _grid_sample_3d(input, grid, mode, padding_mode, align_corners):
    if mode == 'bicubic':
        raise NotImplementedError('grid_sample: bicubic sampling of a 5-D input is not supported by Kiln')
    _check_grid_sample_dtypes(input, grid, 'grid_sampler3d_cpu')
    n, c, d, h, w = input.shape
    do, ho, wo = grid.size(1), grid.size(2), grid.size(3)
    m = do * ho * wo
    g = grid.detach().reshape(n, 1, m, 3)
    flat = input.reshape(n, c, d * h * w)

    def at(iz, iy, ix):
        inside = (ix > -1) & (ix < w) & (iy > -1) & (iy < h) & (iz > -1) & (iz < d)
        idx = torch.where(inside, (iz * h + iy) * w + ix, 0).expand(n, c, m)
        return torch.where(inside, flat.gather(2, idx), 0.0)

    x, x_mult = _grid_source_coord(g.select(-1, 0), w, padding_mode, align_corners)
    y, y_mult = _grid_source_coord(g.select(-1, 1), h, padding_mode, align_corners)
    z, z_mult = _grid_source_coord(g.select(-1, 2), d, padding_mode, align_corners)
    if mode == 'nearest':
        out = at(z.round().long(), y.round().long(), x.round().long())
        if grid.requires_grad:
            out = out * (1 + _with_grid_grad(torch.zeros_like(grid), grid, 0.0).sum())
    else:
        xyz = torch.stack([x, y, z], -1)
        x, y, z = _with_grid_grad(xyz, grid.reshape(n, 1, m, 3),
                                  torch.stack([x_mult, y_mult, z_mult], -1)).unbind(-1)
        x0, y0, z0 = x.detach().floor(), y.detach().floor(), z.detach().floor()
        fx, fy, fz = x - x0, y - y0, z - z0
        ix, iy, iz = x0.long(), y0.long(), z0.long()
        out = None
        for dz, wz in ((0, 1 - fz), (1, fz)):
            for dy, wy in ((0, 1 - fy), (1, fy)):
                for dx, wx in ((0, 1 - fx), (1, fx)):
                    v = at(iz + dz, iy + dy, ix + dx) * (wz * wy * wx)
                    out = v if out is None else out + v
    return torch._C._set_grad_fn_name(out.view(n, c, do, ho, wo), 'GridSampler3DBackward0')


F.affine_grid = _affine_grid
F.grid_sample = _grid_sample


# ---- 3-d and circular padding modules, LazyLinear ----

class ZeroPad3d(_PadNd):
    def __init__(self, padding):
        super().__init__(padding, 3, 'constant')


class ConstantPad3d(_PadNd):
    def __init__(self, padding, value):
        super().__init__(padding, 3, 'constant', value)


class ReflectionPad3d(_PadNd):
    def __init__(self, padding):
        super().__init__(padding, 3, 'reflect')


class ReplicationPad3d(_PadNd):
    def __init__(self, padding):
        super().__init__(padding, 3, 'replicate')


class _CircularPadNd(_PadNd):
    def __init__(self, padding, n):
        super().__init__(padding, n, 'circular')
        self._n = n

    def forward(self, input):
        if input.dim() != self._n + 1 and input.dim() != self._n + 2:
            raise ValueError(f'expected {self._n + 1}D or {self._n + 2}D input (got {input.dim()}D input)')
        return F.pad(input, list(self.padding), 'circular')


class CircularPad1d(_CircularPadNd):
    def __init__(self, padding):
        super().__init__(padding, 1)


class CircularPad2d(_CircularPadNd):
    def __init__(self, padding):
        super().__init__(padding, 2)


class CircularPad3d(_CircularPadNd):
    def __init__(self, padding):
        super().__init__(padding, 3)


class UninitializedParameter:
    # A lazy module's parameter until its first forward gives it a shape.
    def __repr__(self):
        return '<UninitializedParameter>'

    @property
    def shape(self):
        raise RuntimeError("Can't access the shape of an uninitialized parameter or buffer. This error usually "
                           "happens in `load_state_dict` when trying to load an uninitialized parameter into an "
                           "initialized one. Call `forward` to initialize the parameters before accessing their "
                           "attributes.")

    def size(self, dim=None):
        return self.shape

    def detach(self):
        return self


class UninitializedBuffer(UninitializedParameter):
    def __repr__(self):
        return '<UninitializedBuffer>'


# Lazy modules (PyTorch's LazyModuleMixin, shared here as functions since a
# class has one base): placeholders until the first call, whose input gives
# the shapes; the parameters are then made and initialized with the module's
# own draws, and the module becomes its cls_to_become (its __class__ changes).
def _lazy_placeholders(module, names, make=UninitializedParameter):
    registry = module._buffers if make is UninitializedBuffer else module._parameters
    for name in names:
        placeholder = make()
        registry[name] = placeholder
        object.__setattr__(module, name, placeholder)


def _has_uninitialized_params(self):
    for v in list(self._parameters.values()) + list(self._buffers.values()):
        if isinstance(v, UninitializedParameter):
            return True
    return False


def _lazy_forward(self, *args, **kwargs):
    if self.has_uninitialized_params():
        with torch.no_grad():
            self.initialize_parameters(*args)
    self.__class__ = self.cls_to_become
    return self.forward(*args, **kwargs)


def _lazy_reset_parameters(self):
    if not self.has_uninitialized_params() and getattr(self, self._lazy_size_attr) != 0:
        self.cls_to_become.reset_parameters(self)


def _make_lazy(cls, becomes, size_attr, initialize):
    for name, value in (('cls_to_become', becomes), ('_lazy_size_attr', size_attr),
                        ('has_uninitialized_params', _has_uninitialized_params),
                        ('reset_parameters', _lazy_reset_parameters), ('initialize_parameters', initialize),
                        ('forward', _lazy_forward)):
        setattr(cls, name, value)


def _lazy_linear_initialize(self, input):
    self.in_features = input.shape[-1]
    self.weight = Parameter(torch.empty(self.out_features, self.in_features))
    if self.bias is not None:
        self.bias = Parameter(torch.empty(self.out_features))
    self.reset_parameters()


class LazyLinear(Linear):
    def __init__(self, out_features, bias=True, device=None, dtype=None):
        super().__init__(0, 0, False)
        self.out_features = out_features
        _lazy_placeholders(self, ['weight', 'bias'] if bias else ['weight'])


def _lazy_conv_setup(module, out_channels, bias):
    module.out_channels = out_channels
    _lazy_placeholders(module, ['weight', 'bias'] if bias else ['weight'])


def _lazy_conv_initialize(self, input, *args):
    n = len(self.kernel_size)
    if input.dim() not in (n + 1, n + 2):
        raise RuntimeError(f'Expected {n + 1}D (unbatched) or {n + 2}D (batched) input to {type(self).__name__}, '
                           f'but got input of size: {input.shape}')
    self.in_channels = input.shape[1] if input.dim() == n + 2 else input.shape[0]
    if self.in_channels % self.groups != 0:
        raise ValueError('in_channels must be divisible by groups')
    if self.transposed:
        shape = [self.in_channels, self.out_channels // self.groups]
    else:
        shape = [self.out_channels, self.in_channels // self.groups]
    self.weight = Parameter(torch.empty(shape + list(self.kernel_size)))
    if self.bias is not None:
        self.bias = Parameter(torch.empty(self.out_channels))
    self.reset_parameters()


class LazyConv1d(Conv1d):
    def __init__(self, out_channels, kernel_size, stride=1, padding=0, dilation=1, groups=1, bias=True,
                 padding_mode='zeros', device=None, dtype=None):
        super().__init__(0, 0, kernel_size, stride, padding, dilation, groups, False, padding_mode)
        _lazy_conv_setup(self, out_channels, bias)


class LazyConv2d(Conv2d):
    def __init__(self, out_channels, kernel_size, stride=1, padding=0, dilation=1, groups=1, bias=True,
                 padding_mode='zeros', device=None, dtype=None):
        super().__init__(0, 0, kernel_size, stride, padding, dilation, groups, False, padding_mode)
        _lazy_conv_setup(self, out_channels, bias)


class LazyConvTranspose1d(ConvTranspose1d):
    def __init__(self, out_channels, kernel_size, stride=1, padding=0, output_padding=0, groups=1, bias=True,
                 dilation=1, padding_mode='zeros', device=None, dtype=None):
        super().__init__(0, 0, kernel_size, stride, padding, output_padding, groups, False, dilation, padding_mode)
        _lazy_conv_setup(self, out_channels, bias)


class LazyConvTranspose2d(ConvTranspose2d):
    def __init__(self, out_channels, kernel_size, stride=1, padding=0, output_padding=0, groups=1, bias=True,
                 dilation=1, padding_mode='zeros', device=None, dtype=None):
        super().__init__(0, 0, kernel_size, stride, padding, output_padding, groups, False, dilation, padding_mode)
        _lazy_conv_setup(self, out_channels, bias)


def _lazy_norm_setup(module, affine, track_running_stats):
    module.affine = affine
    module.track_running_stats = track_running_stats
    if affine:
        _lazy_placeholders(module, ['weight', 'bias'])
    if track_running_stats:
        _lazy_placeholders(module, ['running_mean', 'running_var'], UninitializedBuffer)
        module.num_batches_tracked = torch.tensor(0, dtype=torch.long)


def _lazy_norm_initialize(self, input):
    self.num_features = input.shape[1]
    if self.affine:
        self.weight = Parameter(torch.empty(self.num_features))
        self.bias = Parameter(torch.empty(self.num_features))
    if self.track_running_stats:
        self.running_mean = torch.zeros(self.num_features)
        self.running_var = torch.ones(self.num_features)
    self.reset_parameters()


# Not BatchNorm subclasses, as in PyTorch (LazyConvs are Conv subclasses).
class LazyBatchNorm1d(_BatchNorm):
    _check_input_dim = BatchNorm1d._check_input_dim

    def __init__(self, eps=1e-5, momentum=0.1, affine=True, track_running_stats=True, device=None, dtype=None):
        super().__init__(0, eps, momentum, False, False)
        _lazy_norm_setup(self, affine, track_running_stats)


class LazyBatchNorm2d(_BatchNorm):
    _check_input_dim = BatchNorm2d._check_input_dim

    def __init__(self, eps=1e-5, momentum=0.1, affine=True, track_running_stats=True, device=None, dtype=None):
        super().__init__(0, eps, momentum, False, False)
        _lazy_norm_setup(self, affine, track_running_stats)


# PyTorch's lazy instance norms default to affine=True, track_running_stats=True.
class LazyInstanceNorm1d(_InstanceNorm):
    _spatial = 1

    def __init__(self, eps=1e-5, momentum=0.1, affine=True, track_running_stats=True, device=None, dtype=None):
        super().__init__(0, eps, momentum, False, False)
        _lazy_norm_setup(self, affine, track_running_stats)


class LazyInstanceNorm2d(_InstanceNorm):
    _spatial = 2

    def __init__(self, eps=1e-5, momentum=0.1, affine=True, track_running_stats=True, device=None, dtype=None):
        super().__init__(0, eps, momentum, False, False)
        _lazy_norm_setup(self, affine, track_running_stats)


_make_lazy(LazyLinear, Linear, 'in_features', _lazy_linear_initialize)
for _lazy, _concrete in ((LazyConv1d, Conv1d), (LazyConv2d, Conv2d), (LazyConvTranspose1d, ConvTranspose1d),
                         (LazyConvTranspose2d, ConvTranspose2d)):
    _make_lazy(_lazy, _concrete, 'in_channels', _lazy_conv_initialize)
for _lazy, _concrete in ((LazyBatchNorm1d, BatchNorm1d), (LazyBatchNorm2d, BatchNorm2d),
                         (LazyInstanceNorm1d, InstanceNorm1d), (LazyInstanceNorm2d, InstanceNorm2d)):
    _make_lazy(_lazy, _concrete, 'num_features', _lazy_norm_initialize)


# ---- the deprecated upsample wrappers, the *_with_indices pools, NLLLoss2d ----
# (torch.pdist and F.pdist are the op table's pdist, core/ops/torch_extras.cpp.)

def _upsample(input, size=None, scale_factor=None, mode='nearest', align_corners=None):
    return F.interpolate(input, size, scale_factor, mode, align_corners)


def _upsample_nearest(input, size=None, scale_factor=None):
    return F.interpolate(input, size, scale_factor, mode='nearest')


def _upsample_bilinear(input, size=None, scale_factor=None):
    return F.interpolate(input, size, scale_factor, mode='bilinear', align_corners=True)


# PyTorch's *_with_indices pools return (values, indices) whatever return_indices says.
def _max_pool1d_with_indices(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False,
                             return_indices=False):
    return F.max_pool1d(input, kernel_size, stride, padding, dilation, ceil_mode=ceil_mode, return_indices=True)


def _max_pool2d_with_indices(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False,
                             return_indices=False):
    return F.max_pool2d(input, kernel_size, stride, padding, dilation, ceil_mode=ceil_mode, return_indices=True)


def _adaptive_max_pool1d_with_indices(input, output_size, return_indices=False):
    return F.adaptive_max_pool1d(input, output_size, True)


def _adaptive_max_pool2d_with_indices(input, output_size, return_indices=False):
    return F.adaptive_max_pool2d(input, output_size, True)


def _max_pool3d_with_indices(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False,
                             return_indices=False):
    return F.max_pool3d(input, kernel_size, stride, padding, dilation, ceil_mode=ceil_mode, return_indices=True)


def _adaptive_max_pool3d_with_indices(input, output_size, return_indices=False):
    return F.adaptive_max_pool3d(input, output_size, True)


for _f in (_upsample, _upsample_nearest, _upsample_bilinear, _max_pool1d_with_indices,
           _max_pool2d_with_indices, _adaptive_max_pool1d_with_indices, _adaptive_max_pool2d_with_indices,
           _max_pool3d_with_indices, _adaptive_max_pool3d_with_indices):
    setattr(F, _f.__name__[1:], _f)


class NLLLoss2d(NLLLoss):
    pass


# ---- CTC loss ----

def _lse3_safe(a, b, c):
    # ATen's log(exp(a-m)+exp(b-m)+exp(c-m))+m with m = max (0 when all are
    # -inf), kept free of nan gradients where every term is -inf.
    m = torch.maximum(torch.maximum(a, b), c).detach()
    m = torch.where(m == -math.inf, 0.0, m)
    s = torch.exp(a - m) + torch.exp(b - m) + torch.exp(c - m)
    alive = s > 0
    return torch.where(alive, torch.log(torch.where(alive, s, 1.0)) + m, -math.inf)


# Lengths as a list of ints: a tensor of size (N) or () (an unbatched input's), a sequence or an int.
def _ctc_lengths(lengths):
    if isinstance(lengths, torch.Tensor):
        lengths = lengths.reshape(-1).tolist()
    elif isinstance(lengths, int):
        lengths = [lengths]
    return [int(v) for v in lengths]


def _ctc_loss(log_probs, targets, input_lengths, target_lengths, blank=0, reduction='mean', zero_infinity=False):
    if reduction not in ('none', 'mean', 'sum'):
        raise ValueError(f'{reduction} is not a valid value for reduction')
    batched = log_probs.dim() == 3
    lp = log_probs if batched else log_probs.unsqueeze(1)
    if not batched:
        targets = targets.unsqueeze(0)
    t_max, n, num_labels = lp.shape
    il = _ctc_lengths(input_lengths)
    tl = _ctc_lengths(target_lengths)
    if not (0 <= blank < num_labels):
        raise RuntimeError('blank must be in label range')
    if len(il) != n:
        raise RuntimeError('input_lengths must be of size batch_size')
    if len(tl) != n:
        raise RuntimeError('target_lengths must be of size batch_size')
    targets = targets.to(torch.int64)
    l_max = max(tl + [0])
    if targets.dim() == 1:
        rows, at = [], 0
        for length in tl:
            rows.append(targets[at:at + length].tolist() + [blank] * (l_max - length))
            at += length
        padded = torch.tensor(rows, dtype=torch.int64, device=lp.device).view(n, l_max)
    else:
        if targets.size(1) < l_max:
            raise RuntimeError(f"Expected tensor to have size at least {l_max} at dimension 1, but got size "
                               f"{targets.size(1)} for argument #2 'targets' (while checking arguments for "
                               f"ctc_loss_allocate_outputs)")
        padded = targets[:, :l_max]
    for length in il:
        if length > t_max:
            raise RuntimeError(f'Expected input_lengths to have value at most {t_max}, but got value {length} '
                               f'(while checking arguments for ctc_loss_allocate_outputs)')
    # The extended labels l' (blanks around each target) and where the skip
    # from s-2 is allowed (a target unlike the one before it).
    s_len = 2 * l_max + 1
    ext = torch.full((n, s_len), blank, dtype=torch.int64, device=lp.device)
    skip = torch.zeros(n, s_len, dtype=torch.bool, device=lp.device)
    if l_max > 0:
        ext[:, 1::2] = padded
        skip[:, 3::2] = padded[:, 1:] != padded[:, :-1]
    neg = torch.full((n, 1), -math.inf, dtype=lp.dtype, device=lp.device)
    neg2 = torch.full((n, 2), -math.inf, dtype=lp.dtype, device=lp.device)
    lengths = torch.tensor(il, device=lp.device)
    first = torch.full((n, s_len), -math.inf, dtype=lp.dtype, device=lp.device)
    emit0 = lp[0].gather(1, ext)
    first[:, :1] = emit0[:, :1]
    if l_max > 0:
        first[:, 1:2] = torch.where(torch.tensor(tl, device=lp.device).unsqueeze(1) > 0, emit0[:, 1:2], -math.inf)
    alpha = first
    final = alpha
    for t in range(1, t_max):
        prev1 = torch.cat([neg, alpha[:, :-1]], 1)
        prev2 = torch.where(skip, torch.cat([neg2, alpha[:, :-2]], 1), -math.inf)
        alpha = _lse3_safe(alpha, prev1, prev2) + lp[t].gather(1, ext)
        final = torch.where((lengths - 1 == t).unsqueeze(1), alpha, final)
    tl_t = torch.tensor(tl, device=lp.device)
    last = final.gather(1, (2 * tl_t).unsqueeze(1)).squeeze(1)
    before = final.gather(1, (2 * tl_t - 1).clamp_min(0).unsqueeze(1)).squeeze(1)
    before = torch.where(tl_t > 0, before, -math.inf)
    nll = -_lse3_safe(last, before, torch.full_like(last, -math.inf))
    # PyTorch's gradient to log_probs is exp(log_probs) minus the posterior:
    # the gradient to logits through log_softmax. A term of value 0 adds it.
    in_time = (torch.arange(t_max, device=lp.device).unsqueeze(1) < lengths.unsqueeze(0)).unsqueeze(2)
    e = lp.exp()
    extra = torch.where(in_time, e - e.detach(), 0.0)
    impossible = (nll == math.inf).view(1, n, 1) & in_time
    if extra.requires_grad and not zero_infinity and bool(impossible.any()):
        # An impossible alignment's gradient is nan in PyTorch (inf - inf).
        extra.register_hook(lambda g: torch.where(impossible, math.nan, g))
    nll = nll + extra.sum((0, 2))
    nll = torch._C._set_grad_fn_name(nll, 'CtcLossBackward0')
    if zero_infinity:
        nll = torch.where(nll == math.inf, torch.zeros((), dtype=nll.dtype, device=nll.device), nll)
    if reduction == 'mean':
        return (nll / tl_t.to(nll.dtype).clamp_min(1)).mean()
    if reduction == 'sum':
        return nll.sum()
    return nll if batched else nll.squeeze(0)


F.ctc_loss = _ctc_loss


class CTCLoss(_Loss):
    def __init__(self, blank=0, reduction='mean', zero_infinity=False):
        super().__init__(reduction=reduction)
        self.blank = blank
        self.zero_infinity = zero_infinity

    def forward(self, log_probs, targets, input_lengths, target_lengths):
        return F.ctc_loss(log_probs, targets, input_lengths, target_lengths, self.blank, self.reduction,
                          self.zero_infinity)


# ---- fractional max pooling (2-d) ----

def _fmp_starts(samples, input_size, output_size, pool_size):
    # ATen's generate_intervals, in the input's dtype: window starts
    # int((i + u) * alpha) - int(u * alpha), the last at input_size - pool_size.
    seq = torch.zeros(samples.size(0), output_size, dtype=torch.int64, device=samples.device)
    if output_size > 1:
        alpha = (torch.tensor(input_size - pool_size, dtype=samples.dtype, device=samples.device)
                 / torch.tensor(output_size - 1, dtype=samples.dtype, device=samples.device))
        i = torch.arange(output_size, dtype=samples.dtype, device=samples.device)
        seq = ((i.unsqueeze(0) + samples.unsqueeze(1)) * alpha).long() - (samples * alpha).long().unsqueeze(1)
    if output_size > 0:
        seq[:, output_size - 1] = input_size - pool_size
    return seq


def _fractional_max_pool2d_with_indices(input, kernel_size, output_size=None, output_ratio=None,
                                        return_indices=False, _random_samples=None):
    if output_size is None and output_ratio is None:
        raise ValueError('fractional_max_pool2d requires specifying either an output_size or an output_ratio')
    kh, kw = _pair(kernel_size)
    if output_size is None:
        if len(output_ratio) > 2:
            raise ValueError('fractional_max_pool2d requires output_ratio to either be a single Int or tuple of Ints.')
        ratio = _pair(output_ratio)
        output_size = [int(input.size(-2) * ratio[0]), int(input.size(-1) * ratio[1])]
    oh, ow = _pair(output_size)
    if _random_samples is None:
        n_batch = 1 if input.dim() == 3 else input.size(0)
        _random_samples = torch.rand(n_batch, input.size(-3), 2, dtype=input.dtype, device=input.device)
    if input.dim() not in (3, 4):
        raise RuntimeError(f'fractional_max_pool2d(): Expected 3D or 4D tensor, but got: {list(input.shape)}')
    for d in range(1, input.dim()):
        if input.size(d) == 0:
            raise RuntimeError(f'fractional_max_pool2d(): Expected input to have non-zero size for non-batch '
                               f'dimensions, but got{list(input.shape)} with dimension {d} being empty.')
    h, w = input.size(-2), input.size(-1)
    if oh + kh - 1 > h:
        raise RuntimeError(f'fractional_max_pool2d(): pool height {kh} too large relative to input height {h}')
    if ow + kw - 1 > w:
        raise RuntimeError(f'fractional_max_pool2d(): pool width {kw} too large relative to input width {w}')
    planes = input.numel() // (h * w)
    samples = _random_samples.reshape(planes, 2)
    rows = _fmp_starts(samples[:, 1], h, oh, kh).unsqueeze(2) + torch.arange(kh, device=input.device)
    cols = _fmp_starts(samples[:, 0], w, ow, kw).unsqueeze(2) + torch.arange(kw, device=input.device)
    # Each window's pixels in ATen's scan order (rows, then columns); the first
    # strict maximum wins, as torch.argmax's first occurrence.
    window = (rows[:, :, None, :, None] * w + cols[:, None, :, None, :]).reshape(planes, oh * ow, kh * kw)
    x = input.reshape(planes, h * w)
    pos = x.detach().gather(1, window.reshape(planes, -1)).view(planes, oh * ow, kh * kw).argmax(-1, keepdim=True)
    indices = window.gather(2, pos).view(planes, oh * ow)
    shape = list(input.shape)[:-2] + [oh, ow]
    out = torch._C._set_grad_fn_name(x.gather(1, indices).view(shape), 'FractionalMaxPool2DBackward0')
    return out, indices.view(shape)


def _fractional_max_pool2d(input, kernel_size, output_size=None, output_ratio=None, return_indices=False,
                           _random_samples=None):
    out, indices = _fractional_max_pool2d_with_indices(input, kernel_size, output_size, output_ratio, True,
                                                       _random_samples)
    return (out, indices) if return_indices else out


F.fractional_max_pool2d = _fractional_max_pool2d
F.fractional_max_pool2d_with_indices = _fractional_max_pool2d_with_indices


class FractionalMaxPool2d(Module):
    def __init__(self, kernel_size, output_size=None, output_ratio=None, return_indices=False, _random_samples=None):
        super().__init__()
        self.kernel_size = _pair(kernel_size)
        self.return_indices = return_indices
        self.register_buffer('_random_samples', _random_samples)
        self.output_size = _pair(output_size) if output_size is not None else None
        self.output_ratio = _pair(output_ratio) if output_ratio is not None else None
        if output_size is None and output_ratio is None:
            raise ValueError('FractionalMaxPool2d requires specifying either an output size, or a pooling ratio')
        if output_size is not None and output_ratio is not None:
            raise ValueError('only one of output_size and output_ratio may be specified')
        if self.output_ratio is not None:
            if not (0 < self.output_ratio[0] < 1 and 0 < self.output_ratio[1] < 1):
                raise ValueError(f'output_ratio must be between 0 and 1 (got {output_ratio})')

    def forward(self, input):
        return F.fractional_max_pool2d(input, self.kernel_size, self.output_size, self.output_ratio,
                                       self.return_indices, _random_samples=self._random_samples)


# The modules PyTorch defines these classes in (what type(m) and __module__
# show): torch.nn.modules.<file>.
def _place_in_submodules():
    files = {
        'module': (Module,),
        'linear': (Identity, Linear, Bilinear, LazyLinear),
        'conv': (Conv1d, Conv2d, Conv3d, ConvTranspose1d, ConvTranspose2d, ConvTranspose3d, LazyConv1d, LazyConv2d,
                 LazyConvTranspose1d, LazyConvTranspose2d),
        'batchnorm': (BatchNorm1d, BatchNorm2d, BatchNorm3d, LazyBatchNorm1d, LazyBatchNorm2d),
        'instancenorm': (InstanceNorm1d, InstanceNorm2d, InstanceNorm3d, LazyInstanceNorm1d, LazyInstanceNorm2d),
        'normalization': (LayerNorm, GroupNorm, LocalResponseNorm, RMSNorm),
        'pooling': (MaxPool1d, MaxPool2d, MaxPool3d, AvgPool1d, AvgPool2d, AvgPool3d, AdaptiveAvgPool1d,
                    AdaptiveAvgPool2d, AdaptiveAvgPool3d, AdaptiveMaxPool1d, AdaptiveMaxPool2d, AdaptiveMaxPool3d,
                    LPPool1d, LPPool2d, MaxUnpool1d, MaxUnpool2d, FractionalMaxPool2d),
        'activation': (ReLU, GELU, SiLU, Tanh, Sigmoid, Softmax, LogSoftmax, LeakyReLU, ELU, CELU, SELU, Mish,
                       Hardswish, Hardsigmoid, Hardtanh, ReLU6, Threshold, Softplus, Softsign, LogSigmoid,
                       Tanhshrink, Softshrink, Hardshrink, GLU, PReLU, Softmin, Softmax2d, RReLU),
        'dropout': (Dropout, Dropout1d, Dropout2d, Dropout3d, AlphaDropout, FeatureAlphaDropout),
        'container': (Sequential, ModuleList, ModuleDict, ParameterList, ParameterDict),
        'flatten': (Flatten, Unflatten),
        'sparse': (Embedding, EmbeddingBag),
        'padding': (ZeroPad1d, ZeroPad2d, ZeroPad3d, ConstantPad1d, ConstantPad2d, ConstantPad3d, ReflectionPad1d,
                    ReflectionPad2d, ReflectionPad3d, ReplicationPad1d, ReplicationPad2d, ReplicationPad3d,
                    CircularPad1d, CircularPad2d, CircularPad3d),
        'pixelshuffle': (PixelShuffle, PixelUnshuffle),
        'upsampling': (Upsample, UpsamplingNearest2d, UpsamplingBilinear2d),
        'channelshuffle': (ChannelShuffle,),
        'fold': (Fold, Unfold),
        'distance': (PairwiseDistance, CosineSimilarity),
        'loss': (CrossEntropyLoss, MSELoss, L1Loss, NLLLoss, BCELoss, BCEWithLogitsLoss, SmoothL1Loss, HuberLoss,
                 KLDivLoss, SoftMarginLoss, HingeEmbeddingLoss, CosineEmbeddingLoss, MarginRankingLoss,
                 TripletMarginLoss, PoissonNLLLoss, GaussianNLLLoss, MultiLabelSoftMarginLoss, MultiMarginLoss,
                 MultiLabelMarginLoss, TripletMarginWithDistanceLoss, NLLLoss2d, CTCLoss),
    }
    for name, classes in files.items():
        for cls in classes:
            cls.__module__ = 'torch.nn.modules.' + name


_place_in_submodules()

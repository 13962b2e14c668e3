# torch.autograd: grad and backward (native, core/lang/torch_autograd.cpp),
# custom differentiable functions (Function with forward/backward static
# methods and a ctx), and the legacy and debugging names scripts still use.
import torch

grad = torch._C._autograd_grad
backward = torch._C._autograd_backward


class FunctionCtx:
    materialize_grads = True  # read by the Function's backward node (core/lang/torch_autograd.cpp)

    def save_for_backward(self, *tensors):
        self.saved_tensors = tensors

    def mark_non_differentiable(self, *args):
        self._non_differentiable = args

    def mark_dirty(self, *args):
        pass

    def set_materialize_grads(self, value):
        self.materialize_grads = value


class Function:
    # PyTorch calls these as static methods on the class: Exp.apply(x).
    @staticmethod
    def forward(ctx, *args, **kwargs):
        raise NotImplementedError("You must implement the forward function for custom autograd.Function.")

    @staticmethod
    def backward(ctx, *grad_outputs):
        raise NotImplementedError("You must implement either the backward or vjp method for your custom "
                                  "autograd.Function to use it with backward mode AD.")

    @classmethod
    def apply(cls, *args, **kwargs):
        if kwargs:
            raise NotImplementedError("kiln: torch.autograd.Function.apply takes positional arguments only")
        ctx = FunctionCtx()
        ctx._non_differentiable = ()
        ctx.needs_input_grad = tuple(isinstance(a, torch.Tensor) and a.requires_grad and torch.is_grad_enabled()
                                     for a in args)
        with torch.no_grad():
            if cls.setup_context is Function.setup_context:
                outputs = cls.forward(ctx, *args)
            else:
                # The PyTorch 2 form: forward(*args) without ctx, then setup_context(ctx, inputs, output).
                outputs = cls.forward(*args)
                cls.setup_context(ctx, args, outputs)
        if cls.backward is Function.backward and cls.jvp is not Function.jvp:
            # Forward mode only: its outputs become dual tensors carrying what jvp gives.
            duals = torch.autograd.forward_ad._function_jvp(cls, ctx, args, outputs)
            if duals is not None:
                return duals
        return torch._C._function_apply(cls, ctx, args, outputs, ctx._non_differentiable)

    @staticmethod
    def setup_context(ctx, inputs, output):
        raise NotImplementedError("setup_context is not implemented.")

    @staticmethod
    def jvp(ctx, *grad_inputs):
        raise NotImplementedError("You must implement the jvp function for custom autograd.Function to use it "
                                  "with forward mode AD.")


def Variable(data, requires_grad=False, volatile=False):
    # The pre-0.4 wrapper: a tensor is a Variable now.
    if requires_grad:
        data.requires_grad_(True)
    return data


class _NoOpContext:
    def __init__(self, *args, **kwargs):
        pass

    def __enter__(self):
        return self

    def __exit__(self, *args):
        return False


detect_anomaly = _NoOpContext


def set_detect_anomaly(mode, check_nan=True):
    return _NoOpContext()


def set_grad_enabled(mode):
    return torch.set_grad_enabled(mode)


no_grad = torch.no_grad
enable_grad = torch.enable_grad


def once_differentiable(fn):
    # Backward formulas are never differentiated in kiln (no create_graph), so this holds already.
    return fn

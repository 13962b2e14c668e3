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


# ---- gradcheck -----------------------------------------------------------------------------
# PyTorch's slow-mode check: each input's Jacobian by central finite differences
# against the one backward gives (one vector-Jacobian product per output element).

class GradcheckError(RuntimeError):
    pass


def _as_tuple(x):
    if isinstance(x, tuple):
        return x
    if isinstance(x, list):
        return tuple(x)
    return (x,)


def _numerical_jacobian(func, inputs, i, out_index, out_numel, eps):
    x = inputs[i]
    jac = torch.zeros(x.numel(), out_numel, dtype=x.dtype)
    base = x.detach().reshape(-1)
    for k in range(x.numel()):
        step = torch.zeros_like(base)
        step[k] = eps
        outs = []
        for sign in (1, -1):
            args = list(inputs)
            # The perturbed input requires grad as the original does: func may differentiate (gradgradcheck).
            args[i] = (base + sign * step).reshape(x.shape).requires_grad_(x.requires_grad)
            outs.append(_as_tuple(func(*args))[out_index].detach().reshape(-1).to(x.dtype))
        jac[k] = (outs[0] - outs[1]) / (2 * eps)
    return jac


def _analytical_jacobian(out, x):
    jac = torch.zeros(x.numel(), out.numel(), dtype=x.dtype)
    flat = out.reshape(-1)
    for j in range(out.numel()):
        g, = grad(flat[j], [x], retain_graph=True, allow_unused=True)
        if g is not None:
            jac[:, j] = g.reshape(-1).to(x.dtype)
    return jac


def gradcheck(func, inputs, *, eps=1e-6, atol=1e-5, rtol=1e-3, raise_exception=True, nondet_tol=0.0,
              check_undefined_grad=True, check_grad_dtypes=False, check_batched_grad=False,
              check_batched_forward_grad=False, check_forward_ad=False, check_backward_ad=True,
              fast_mode=False, masked=None):
    inputs = _as_tuple(inputs)
    wrt = [i for i, x in enumerate(inputs) if isinstance(x, torch.Tensor) and x.requires_grad]
    if not wrt:
        raise ValueError('gradcheck expects at least one input tensor to require gradient, but none of them '
                         'have requires_grad=True.')
    if not check_backward_ad:
        return True
    outputs = [(k, o) for k, o in enumerate(_as_tuple(func(*inputs)))
               if isinstance(o, torch.Tensor) and o.requires_grad]
    for oi, (k, out) in enumerate(outputs):
        for ii, i in enumerate(wrt):
            numerical = _numerical_jacobian(func, inputs, i, k, out.numel(), eps)
            analytical = _analytical_jacobian(out, inputs[i])
            if not torch.allclose(analytical, numerical, rtol, atol):
                if not raise_exception:
                    return False
                raise GradcheckError('Jacobian mismatch for output ' + str(oi) + ' with respect to input '
                                     + str(ii) + ',\nnumerical:' + str(numerical) + '\nanalytical:'
                                     + str(analytical) + '\n')
    return True


def gradgradcheck(func, inputs, grad_outputs=None, *, eps=1e-6, atol=1e-5, rtol=1e-3,
                  gen_non_contig_grad_outputs=False, raise_exception=True, nondet_tol=0.0,
                  check_undefined_grad=True, check_grad_dtypes=False, check_batched_grad=False,
                  check_fwd_over_rev=False, check_rev_over_rev=True, fast_mode=False, masked=False):
    # gradcheck of the vector-Jacobian product: the inputs' grads for grad_outputs
    # (uniform in [-1, 1) when not given), with respect to the inputs and grad_outputs.
    inputs = _as_tuple(inputs)
    if grad_outputs is None:
        outs = [o for o in _as_tuple(func(*inputs)) if isinstance(o, torch.Tensor) and o.requires_grad]
        grad_outputs = tuple((torch.rand_like(o) * 2 - 1).requires_grad_() for o in outs)
    grad_outputs = _as_tuple(grad_outputs)
    n = len(inputs)
    wrt = [i for i, x in enumerate(inputs) if isinstance(x, torch.Tensor) and x.requires_grad]

    def vjp(*args):
        ins, gos = args[:n], args[n:]
        outs = [o for o in _as_tuple(func(*ins)) if isinstance(o, torch.Tensor) and o.requires_grad]
        grads = grad(outs, [ins[i] for i in wrt], gos, create_graph=True, allow_unused=True)
        return tuple(g for g in grads if g is not None)

    return gradcheck(vjp, inputs + grad_outputs, eps=eps, atol=atol, rtol=rtol, raise_exception=raise_exception)

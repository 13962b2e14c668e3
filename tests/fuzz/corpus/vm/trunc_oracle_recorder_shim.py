# Runs a Kiln script under CPython + PyTorch for recording its expected
# output. Debian's PyTorch 1.13 has no torch.compile; Kiln's semantics for it
# (and for torch.compiler.disable) are the identity, so the shim defines them
# that way. Usage: python3 recorder_shim.py script.py [args...]
import runpy
import sys
import types

import torch


def _identity_decorator(fn=None, *args, **kwargs):
    if fn is None or not callable(fn):
        return lambda f: f
    return fn


if not hasattr(torch, "compile"):
    torch.compile = _identity_decorator
if not hasattr(torch, "compiler"):
    torch.compiler = types.SimpleNamespace()
if not hasattr(torch.compiler, "disable"):
    torch.compiler.disable = _
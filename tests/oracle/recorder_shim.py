# Runs a Kiln script under CPython + PyTorch for recording its expected
# output. Debian's PyTorch 1.13 has no torch.compile; Kiln's semantics for it
# (and for torch.compiler.disable) are the identity, so the shim defines them
# that way. Usage: python3 recorder_shim.py script.py [args...]
import os
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
    torch.compiler.disable = _identity_decorator

script = sys.argv[1]
sys.argv = sys.argv[1:]
# As `python script.py` does: the script's directory is sys.path[0], where its
# own modules are found (tests/oracle/multifile).
sys.path[0] = os.path.dirname(os.path.realpath(script))
runpy.run_path(script, run_name="__main__")

# torch._dynamo: the parts of Dynamo's surface scripts use with torch.compile.

import torch
import torch.compiler


def mark_dynamic(t, index, min=None, max=None):
    if isinstance(index, (list, tuple)):
        for i in index:
            torch._C._jit_mark_dynamic(t, i)
    else:
        torch._C._jit_mark_dynamic(t, index)


def mark_static(t, index=None):
    pass


def reset():
    torch.compiler.reset()


disable = torch.compiler.disable

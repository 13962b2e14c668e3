# Error types and messages scripts print for common mistakes (PyTorch's words)
import torch
import torch.nn.functional as F


def show(name, f):
    try:
        r = f()
        print(name, "->", r)
    except Exception as e:
        msg = str(e)
        print(name, type(e).__name__)
        for i in range(0, len(msg), 100):
            print("   ", msg[i:i + 100])


b = torch.tensor([True, False])
show("bool-sub", lambda: b - b)
show("bool-sub-int", lambda: b - 1)
show("int-sub-bool", lambda: torch.tensor([3, 4]) - b)
show("rsub-bool", lambda: 1 - b)
show("bool-sub_", lambda: b.clone().sub_(b))
show("bool-neg", lambda: -b)
show("bool-add", lambda: b + b)
show("bool-xor", lambda: b ^ b)
D = torch.float64
show("linear-x64", lambda: F.linear(torch.ones(1, 2, dtype=D), torch.ones(2, 2), torch.ones(2)))
show("linear-w64", lambda: F.linear(torch.ones(1, 2), torch.ones(2, 2, dtype=D), torch.ones(2)))
show("linear-b64", lambda: F.linear(torch.ones(1, 2), torch.ones(2, 2), torch.ones(2, dtype=D)))
show("linear-3d", lambda: F.linear(torch.ones(3, 1, 2, dtype=D), torch.ones(2, 2), torch.ones(2)))
show("linear-nobias", lambda: F.linear(torch.ones(1, 2, dtype=D), torch.ones(2, 2)))
show("addmm-self", lambda: torch.addmm(torch.ones(2, dtype=D), torch.ones(1, 2), torch.ones(2, 2)))
show("addmm-mat2", lambda: torch.addmm(torch.ones(2), torch.ones(1, 2), torch.ones(2, 2, dtype=D)))
show("mv-mat64", lambda: torch.ones(2, 2, dtype=D) @ torch.ones(2))
show("mv-vec64", lambda: torch.mv(torch.ones(2, 2), torch.ones(2, dtype=D)))
show("mm-int", lambda: torch.ones(2, 2) @ torch.ones(2, 2, dtype=torch.int64))
show("zeros-neg", lambda: torch.zeros(2, -3))
show("ones-neg", lambda: torch.ones(-1))
show("new-zeros-neg", lambda: torch.ones(2).new_zeros((2, -1)))
show("arange-sign", lambda: torch.arange(0, 10, -1))
show("arange-rev", lambda: torch.arange(10, 0))
show("eye-n", lambda: torch.eye(-1))
show("eye-m", lambda: torch.eye(2, -1))
show("select", lambda: torch.ones(2, 3).select(1, 5))
show("index", lambda: torch.ones(2, 3)[:, 5])
show("cat-empty", lambda: torch.cat([]))
show("stack-empty", lambda: torch.stack([]))
show("std-int", lambda: torch.tensor([1, 2]).std())
show("var-bool", lambda: torch.tensor([True]).var())
show("pad-odd", lambda: F.pad(torch.ones(2, 2), (1, 1, 1)))
show("pad-long", lambda: F.pad(torch.ones(2), (1, 1, 1, 1)))
show("pad-ok", lambda: F.pad(torch.ones(1, 2), (1, 0)).tolist())
show("nll-1d", lambda: F.nll_loss(torch.zeros(3), torch.tensor([0, 1, 2])))
show("nll-1d-ok", lambda: round(F.nll_loss(torch.tensor([0.5, -1.0]), torch.tensor([1])).item(), 4))


def put(idx, value):
    t = torch.zeros(3, 4)
    t[idx] = value
    return t.sum().item()


show("put-mismatch", lambda: put(torch.tensor([0, 1]), torch.ones(3)))
show("put-mismatch-2", lambda: put(torch.tensor([0, 1]), torch.ones(2, 3)))
show("put-row", lambda: put(torch.tensor([0, 1]), torch.ones(4)))
show("put-col", lambda: put(torch.tensor([0, 2]), torch.ones(2, 1)))
show("put-mask", lambda: put(torch.tensor([True, False, True]), torch.ones(5)))

# More error words: broadcasting, requires_grad on ints, grad shapes, argument types
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


show("bcast-2d", lambda: torch.ones(2, 3) * torch.ones(3, 2))
show("bcast-3d", lambda: torch.ones(4, 2, 3) + torch.ones(5, 3, 2))
show("bcast-lead", lambda: torch.ones(2, 3) + torch.ones(4, 1, 5))
show("bcast-ok", lambda: (torch.ones(2, 1) + torch.ones(3)).shape)
show("rg-method", lambda: torch.tensor([1]).requires_grad_())
show("rg-attr", lambda: setattr(torch.tensor([1]), 'requires_grad', True))
show("rg-tensor", lambda: torch.tensor([1], requires_grad=True))
show("rg-zeros", lambda: torch.zeros(2, dtype=torch.int32, requires_grad=True))
show("rg-param", lambda: torch.nn.Parameter(torch.tensor([1])))
show("rg-param-nograd", lambda: torch.nn.Parameter(torch.tensor([1]), requires_grad=False).dtype)
show("rg-new-tensor", lambda: torch.ones(1).new_tensor([1], dtype=torch.int64, requires_grad=True))


def bw_shape():
    x = torch.ones(2, requires_grad=True)
    (x * 2).backward(torch.ones(3))


def grad_shape():
    x = torch.ones(2, requires_grad=True)
    torch.autograd.grad(x * 2, [x], grad_outputs=torch.ones(3))


show("bw-shape", bw_shape)
show("grad-shape", grad_shape)
show("linear-0d", lambda: F.linear(torch.tensor(1.), torch.ones(2, 2)))
show("linear-0d-w", lambda: F.linear(torch.ones(2), torch.tensor(1.)))
show("matmul-0d", lambda: torch.tensor(1.) @ torch.ones(2))
show("flatten-order", lambda: torch.ones(2, 3).flatten(1, 0))
show("kthvalue", lambda: torch.ones(3).kthvalue(5))
f = torch.tensor([0.0])
show("index-select-f", lambda: torch.ones(2).index_select(0, f))
show("index-add-f", lambda: torch.ones(2).index_add(0, f, torch.ones(1)))
show("index-copy-f", lambda: torch.ones(2).index_copy(0, f, torch.ones(1)))
show("index-add-2d", lambda: torch.ones(2).index_add(0, torch.tensor([[0]]), torch.ones(1)))
show("mean-int", lambda: torch.tensor([1, 2]).mean())
show("mean-dtype", lambda: torch.ones(2).mean(dtype=torch.int64))
show("mean-ok", lambda: torch.tensor([1, 2]).mean(dtype=torch.float32).item())
show("zeros-str", lambda: torch.zeros("a"))
show("randn-float", lambda: torch.randn(2.0))
show("arange-str", lambda: torch.arange("a"))
show("zeros-kw", lambda: torch.zeros(size="a"))
show("stack-ints", lambda: torch.stack([1, 2]))
show("cat-ints", lambda: torch.cat([1, 2]))

# Ties in the order statistics: which of several equal values sort, argsort,
# topk, kthvalue, mode and median report is left by PyTorch's CPU kernels to
# their algorithms (std::sort, partial_sort/nth_element, a quickselect), and
# kiln must report the same indices. Every dtype, NaN, both sort directions,
# both topk strategies (k * 64 <= n or not), sorted=False, strided lanes, an
# expanded lane, and the stable radix path of long 1-D integer sorts.
import torch

torch.manual_seed(1)


def show(name, t):
    print(name, t.reshape(-1)[:48].tolist())


dtypes = [torch.float32, torch.float64, torch.int64, torch.int32, torch.int16, torch.int8, torch.uint8,
          torch.float16, torch.bfloat16]
for dt in dtypes:
    for n in (5, 17, 33, 257):
        x = torch.randint(0, 4, (3, n)).to(dt)
        if dt.is_floating_point:
            x[1, 3] = float('nan')
            x[2, 0] = float('nan')
            x[2, n - 1] = float('nan')
        tag = f"{dt} {n}"
        show("sort " + tag, torch.sort(x, dim=1).indices)
        show("sort desc " + tag, torch.sort(x, dim=1, descending=True).indices)
        show("sort strided " + tag, torch.sort(x.t(), dim=0, descending=True).indices)
        show("argsort " + tag, torch.argsort(x, dim=-1))
        show("stable " + tag, torch.sort(x, stable=True, descending=True).indices)
        for k in (1, 3, n // 3 + 1, n):
            v, i = torch.topk(x, k, dim=1)
            show(f"topk {k} " + tag, i)
            show(f"topk values {k} " + tag, v.float())
            show(f"topk smallest {k} " + tag, torch.topk(x, k, dim=1, largest=False).indices)
            show(f"topk unsorted {k} " + tag, torch.topk(x, k, dim=1, sorted=False).indices)
            show(f"kthvalue {k} " + tag, torch.kthvalue(x, k, dim=1).indices)
        v, i = torch.mode(x, dim=1)
        show("mode " + tag, i)
        show("mode values " + tag, v.float())
        v, i = torch.median(x, dim=1)
        show("median " + tag, i)
        show("median values " + tag, v.float())

b = torch.randint(0, 2, (50,)).bool()
show("bool sort", torch.sort(b).indices)
show("bool sort desc", torch.sort(b, descending=True).indices)
e = torch.tensor([2.0]).expand(40)
show("expanded", torch.sort(e).indices)
show("expanded desc", torch.sort(e, descending=True).indices)
for dt in (torch.int64, torch.uint8, torch.float32):
    big = torch.randint(0, 7, (40000,)).to(dt)
    show(f"long 1-D {dt}", torch.sort(big).indices[-48:])
    show(f"long 1-D desc {dt}", torch.sort(big, descending=True).indices[-48:])
    show(f"long 2-D {dt}", torch.sort(big.reshape(1, -1)).indices[0, -48:])
    show(f"long topk {dt}", torch.topk(big, 40).indices)
    show(f"long kthvalue {dt}", torch.kthvalue(big, 20000).indices)

s = torch.tensor(3.0)
print(torch.sort(s), torch.topk(s, 1), torch.kthvalue(s, 1), torch.mode(s))
x = torch.randn(4, 6).round().requires_grad_(True)
v, i = torch.topk(x, 3)
v.sum().backward()
print(i.tolist(), x.grad.tolist())
# multinomial without replacement is a topk of p / q: ties among zero probabilities
p = torch.tensor([[0.0, 0.0, 0.5, 0.0, 0.5, 0.0, 0.0, 0.0]])
print(torch.multinomial(p, 6).tolist())
# index-returning reductions and scans over ties: first (max, argmax) or last
# (cummax) occurrence, nanmedian's lower median in (value, index) order
y = torch.randint(0, 3, (4, 20)).float()
y[1, 5] = float('nan')
print(torch.cummax(y, 1).indices.tolist(), torch.cummin(y, 1).indices.tolist())
print(torch.max(y, 1).indices.tolist(), torch.argmin(y, 1).tolist())
print(torch.nanmedian(y, 1).indices.tolist(), torch.nanmedian(y).item())

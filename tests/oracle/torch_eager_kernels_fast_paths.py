# The eager kernels' fast paths against PyTorch's semantics: clamp's bounds (NaN, one-sided,
# ints, -0.0), gather/scatter over strided views and negative indices, float <-> half
# conversion (ties, subnormals, overflow, NaN).
import torch

x = torch.tensor([-2.0, -0.0, 0.0, 0.5, float("nan"), float("inf"), -float("inf"), 3.0])
for lo, hi in [(-1, 1), (None, 1), (-1, None), (float("nan"), 1), (0, float("nan")), (float("nan"), None), (2, 1)]:
    print("clamp", lo, hi, x.clamp(lo, hi).tolist())
print("clamp double", x.double().clamp(-1, 1).tolist())
print("clamp half", x.half().clamp(-1, 1).tolist())
print("clamp bf16", x.bfloat16().clamp(-0.5, 0.5).tolist())
i = torch.tensor([-5, 0, 7, 300])
print("clamp int", i.clamp(-1, 5).tolist(), i.clamp(min=2).tolist(), i.clamp(max=3).tolist())
print("clamp int float bounds", i.clamp(0.5, 2.5).tolist())
print("clamp uint8", torch.tensor([1, 2, 200], dtype=torch.uint8).clamp(max=100).tolist())
print("clamp strided", torch.arange(12.0).reshape(3, 4).t().clamp(2, 9).tolist())
y = torch.arange(4000.0).reshape(2000, 2) / 1000 - 2
print("clamp_ long", round(y.clamp_(-1.5, 1.5).sum().item(), 2), y[::400].tolist())

torch.manual_seed(0)
s = torch.randn(5, 7)
idx = torch.randint(0, 7, (5, 4))
print("gather", s.gather(1, idx).round(decimals=4).tolist())
print("gather dim0", s.gather(0, torch.randint(0, 5, (3, 7))).round(decimals=4).tolist())
st = s.t()
print("gather strided self", st.gather(0, idx.t()[:, :3]).round(decimals=4).tolist())
print("gather strided index", s.gather(1, idx[:, ::2]).round(decimals=4).tolist())
print("gather 0-dim", torch.tensor(3.5).gather(0, torch.tensor(0)).item())
z = torch.zeros(5, 7)
print("scatter_add", z.scatter_add(1, idx, s[:, :4]).round(decimals=4).tolist())
print("scatter_add dup", torch.zeros(3).scatter_add(0, torch.tensor([0, 0, 2, 0]), torch.tensor([1.0, 2.0, 3.0, 4.0])).tolist())
print("scatter last wins", torch.zeros(3).scatter(0, torch.tensor([1, 1, 1]), torch.tensor([5.0, 6.0, 7.0])).tolist())
print("scatter value", torch.zeros(2, 3).scatter(1, torch.tensor([[2], [0]]), 9.0).tolist())
print("scatter_reduce mean", torch.ones(4).scatter_reduce(0, torch.tensor([0, 0, 3]), torch.tensor([2.0, 4.0, 6.0]), "mean").tolist())
print("scatter_reduce amax", torch.zeros(3).scatter_reduce(0, torch.tensor([1, 1, 2]), torch.tensor([5.0, -1.0, 2.0]), "amax", include_self=False).tolist())
print("scatter_add strided src", torch.zeros(7, 5).scatter_add(0, idx.t(), s.t()[:4]).round(decimals=4).tolist())
print("index_select neg-free", s.index_select(1, torch.tensor([6, 0, 3])).round(decimals=4).tolist())
for bad in [lambda: s.gather(1, torch.tensor([[7]] * 5)), lambda: s.gather(1, torch.tensor([[-1]] * 5)),
            lambda: z.scatter_add(1, torch.tensor([[-8]] * 5), s[:, :1]), lambda: z.scatter(1, torch.tensor([[-1]] * 5), 1.0),
            lambda: z.scatter_reduce(1, torch.tensor([[-1]] * 5), s[:, :1], "sum")]:
    try:
        bad()
    except (IndexError, RuntimeError) as e:
        print(type(e).__name__, e)

h = torch.tensor([1.0, 1.0 + 2 ** -11, 1.0 + 3 * 2 ** -11, 65504.0, 65520.0, 1e-8, 6e-8, 3e-5, -0.0, float("nan"), -float("inf")])
print("to half", h.half().tolist())
print("half to float", h.half().float().tolist())
big = torch.linspace(-70000, 70000, 4099)
print("half long", big.half().float()[::512].tolist(), big.half().float().sum().item())
print("half strided", big.reshape(-1, 1).expand(4099, 2).t().half()[:, :3].tolist())

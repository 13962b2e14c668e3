# uint8, int8 and int16 tensors: names, printing, promotion, wrapping arithmetic,
# conversions, reductions and the ops a model script uses them with (images as bytes,
# quantized values, masks).
import torch

SMALL = [torch.uint8, torch.int8, torch.int16]

print(torch.uint8, torch.int8, torch.int16, torch.short, torch.short is torch.int16)
for d in SMALL:
    info = torch.iinfo(d)
    print(d, info.bits, info.min, info.max, d.is_floating_point, d.is_signed, d.itemsize)

for d in SMALL:
    t = torch.tensor([[1, 2, 3], [4, 5, 120]], dtype=d)
    print(t)
    print(t.dtype, t.element_size(), t.type(), t.tolist(), t[1, 2].item(), type(t[0, 0].item()))
    print(repr(torch.zeros(2, dtype=d)), torch.ones(3, dtype=d), torch.full((2,), 7, dtype=d))
    print(torch.arange(5, dtype=d), torch.arange(0, 10, 3, dtype=d))

x = torch.tensor([0, 1, 100, 200, 255], dtype=torch.uint8)
print(x.byte().dtype, x.char(), x.short(), x.int().dtype, x.long(), x.float(), x.double().sum())
print(x.to(torch.int8), x.to(torch.int16) * 300, x.bool())

# Promotion: uint8 with int8 has no common 8-bit type.
a = torch.tensor([1, 2, 3], dtype=torch.uint8)
b = torch.tensor([-1, -2, -3], dtype=torch.int8)
c = torch.tensor([1000, -1000, 30000], dtype=torch.int16)
print(torch.promote_types(torch.uint8, torch.int8), torch.result_type(a, b))
print(a + b, (a + b).dtype, a + c, (b * c).dtype, a + 1, (a + 1).dtype, a + 1.5, (a * 2.0).dtype)
print(a + torch.tensor(5), (a + torch.tensor(5)).dtype, a + torch.tensor([5]), b + True)
print(torch.promote_types(torch.int16, torch.float16), torch.promote_types(torch.uint8, torch.bool))
print(torch.can_cast(torch.int16, torch.int8), torch.can_cast(torch.uint8, torch.float32),
      torch.can_cast(torch.float32, torch.uint8))

# Arithmetic wraps in the tensor's own width.
print(x + 100, x * 3, x - 10, -x, x // 7, x % 7, x / 4, x ** 2)
i8 = torch.tensor([-128, -1, 0, 1, 127], dtype=torch.int8)
print(i8 + 1, i8 * 2, -i8, i8.abs(), i8 // 3, i8 % 3, i8 / 2, torch.div(i8, 3, rounding_mode="trunc"))
i16 = torch.tensor([-32768, -300, 300, 32767], dtype=torch.int16)
print(i16 + 1, i16 * i16, -i16, i16.abs(), i16 // -7, i16 % -7, i16.sign(), i16.clamp(-100, 100))
print(x.max(), x.min(), x.argmax(), x.sum(), x.sum().dtype, x.prod().dtype, x.cumsum(0), x.cumsum(0).dtype)
print(i8.sum(), i16.sum(dim=0), c.float().mean(), x.float().std(), i16.amax(), i8.amin())
print(x.sort(), i8.sort(descending=True).values, x.topk(2), torch.unique(torch.tensor([3, 1, 3], dtype=torch.uint8)))

# Bitwise ops and shifts.
m = torch.tensor([0b1010, 0b0110, 255], dtype=torch.uint8)
print(m & 12, m | 1, m ^ 255, ~m, m << 1, m >> 2, ~i8, i8 >> 1, i8 << 1)
print(torch.bitwise_and(m, torch.tensor(3, dtype=torch.uint8)), torch.bitwise_not(c))

# Comparisons and masks.
print(x > 100, i8 <= 0, (x == 255).sum(), torch.where(x > 100, x, torch.zeros_like(x)))
print(x.masked_fill(x > 150, 0), x[x > 50], x.clamp(max=150), torch.maximum(a, torch.tensor(2, dtype=torch.uint8)))

# Conversions from floats: truncation toward zero, then the width (through int64, as
# PyTorch's CPU kernels do).
f = torch.tensor([-1.5, -0.5, 0.5, 1.9, 255.0, 300.0])
print(f.to(torch.uint8), f.to(torch.int8), f.to(torch.int16), f.byte(), f.char())
print(torch.tensor([2.7, -2.7]).short(), torch.tensor([1.5, 2.5], dtype=torch.float64).to(torch.uint8))

# Images as bytes: normalise a [C, H, W] uint8 image to float and back.
img = (torch.arange(24).reshape(2, 3, 4) * 11 % 256).to(torch.uint8)
norm = img.float() / 255.0
print(img, norm.mean(), (norm * 255).round().to(torch.uint8).equal(img))
print(img.permute(1, 2, 0).contiguous().view(-1)[:6], img.flip(2)[0, 0], img.reshape(6, 4).t().shape)

# Products and other ops on small ints.
ma = torch.tensor([[1, 2], [3, 4]], dtype=torch.int16)
print(ma @ ma, torch.mm(ma, ma).dtype, (ma.to(torch.uint8) @ ma.to(torch.uint8)))
print(torch.cat([a, a]), torch.stack([b, b]), a.repeat(2), b.expand(2, 3), a.unsqueeze(0).dtype)
print(torch.zeros(3, dtype=torch.int8).fill_(5), torch.empty(2, dtype=torch.uint8).zero_())
print(a.new_zeros(2).dtype, torch.zeros_like(b), torch.ones_like(c).dtype, a.clone().add_(250))
s = torch.tensor([10, 20, 30], dtype=torch.int16)
s += 5
s *= 2
s -= torch.tensor([1, 1, 1], dtype=torch.int8)
print(s, s.dtype)
idx = torch.tensor([2, 0], dtype=torch.int64)
print(a[idx], c.index_select(0, idx), torch.gather(c, 0, idx), a.scatter(0, idx, torch.tensor([9, 9], dtype=torch.uint8)))

# Randomness in a small type.
torch.manual_seed(0)
print(torch.randint(0, 256, (6,), dtype=torch.uint8), torch.randint(-5, 5, (4,), dtype=torch.int8))
print(torch.randint(0, 10, (3,), dtype=torch.int16).dtype)

# Errors PyTorch reports.
cases = [
    ("tensor 300 as uint8", lambda: torch.tensor([300], dtype=torch.uint8)),
    ("tensor 128 as int8", lambda: torch.tensor([128], dtype=torch.int8)),
    ("tensor 40000 as int16", lambda: torch.tensor([40000], dtype=torch.int16)),
    ("tensor 2**31 as int32", lambda: torch.tensor([2 ** 31], dtype=torch.int32)),
    ("tensor 300.0 as uint8", lambda: torch.tensor([300.0], dtype=torch.uint8)),
    ("tensor nan as int32", lambda: torch.tensor([float("nan")], dtype=torch.int32)),
    ("full 256 as uint8", lambda: torch.full((2,), 256, dtype=torch.uint8)),
    ("full -1 as uint8", lambda: torch.full((2,), -1, dtype=torch.uint8)),
    ("full 2**31 as int32", lambda: torch.full((2,), 2 ** 31, dtype=torch.int32)),
    ("fill_ 200 into int8", lambda: torch.zeros(1, dtype=torch.int8).fill_(200)),
    ("fill_ -1.0 into uint8", lambda: torch.zeros(1, dtype=torch.uint8).fill_(-1.0)),
    ("fill_ 1e300 into float32", lambda: torch.zeros(1).fill_(1e300)),
    ("fill_ inf into float32", lambda: torch.zeros(1).fill_(float("inf"))),
    ("fill_ 70000 into float16", lambda: torch.zeros(1, dtype=torch.float16).fill_(70000)),
    ("masked_fill 300 into uint8", lambda: torch.zeros(2, dtype=torch.uint8).masked_fill(torch.tensor([True, False]), 300)),
    ("index_fill 300 into uint8", lambda: torch.zeros(2, dtype=torch.uint8).index_fill(0, torch.tensor([0]), 300)),
    ("full_like 128 as int8", lambda: torch.full_like(torch.zeros(2, dtype=torch.int8), 128)),
    ("uint8 + 300 wraps", lambda: torch.zeros(2, dtype=torch.uint8) + 300),
    ("mean of uint8", lambda: torch.tensor([1], dtype=torch.uint8).mean()),
    ("int8 / 0", lambda: torch.tensor([1], dtype=torch.int8) / 0),
    ("int8 // 0", lambda: torch.tensor([1], dtype=torch.int8) // 0),
    ("randint to 300 as uint8", lambda: torch.randint(0, 300, (2,), dtype=torch.uint8)),
    ("index with int16", lambda: torch.arange(3)[torch.tensor([0], dtype=torch.int16)]),
    ("promote_types None", lambda: torch.promote_types(torch.int8, None)),
]
for name, fn in cases:
    try:
        print(name, "->", fn())
    except Exception as e:
        print(name, "->", type(e).__name__, str(e).split("\n")[0])
# A uint8 index is a mask (PyTorch warns that this is deprecated).
print(torch.arange(4)[torch.tensor([1, 0, 1, 1], dtype=torch.uint8)])
print(torch.tensor([-1], dtype=torch.uint8), torch.tensor([-255], dtype=torch.uint8))

# The most negative int64 written as a literal (2**63 negated), and int
# arithmetic that stays within int64 near its edges.
import torch

lo = -9223372036854775808
hi = 9223372036854775807
print(lo, type(lo).__name__, lo == -hi - 1, lo < -hi)
print(-0x8000000000000000 == lo, -0o1000000000000000000000 == lo, -0b1 << 63 == lo)
print(lo // 2, lo % 7, lo // -3, abs(lo + 1), -(lo + 1) == hi)
print(hi // 2 * 2 + 1 == hi, lo + hi, lo + 1 + hi)
print(max(lo, -1), min(lo, 5), sorted([3, lo, hi, 0]))
print(str(lo), repr(lo), f'{lo:,}', hex(lo), bin(hi).count('1'))
print(int('-9223372036854775808') == lo, int(-9223372036854775808.0) == lo)
t = torch.tensor([lo, hi, 0])
print(t.tolist(), t.dtype, t.min().item() == lo, t.max().item() == hi)
print(torch.iinfo(torch.int64).min == lo, torch.iinfo(torch.int64).max == hi)
print(torch.full((2,), lo).tolist(), (t == lo).tolist())
x = [lo, -9223372036854775808, (-9223372036854775808)]
print(len(set(x)), x[0] is not None)

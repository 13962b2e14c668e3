import torch
try:
    print(torch.tensor([[1, 2], [3]]), b[-1], 2 in b, list(b), b(2), str(-b), str(b * 2), str(2 * b), b[1:])
print(sum(b), max(b), sorted(b, reverse=True), [x for x in b if x > 1])
a, *rest = b
print(a, rest)
try:
    b[10]
except IndexError as e:
    print(e)
class Seq:
    def __getitem__(self, i):
        if i >= 3:
            raise IndexError
        return i * i
print(list(Seq()), 4 in Seq())

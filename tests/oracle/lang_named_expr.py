# Assignment expressions (`name := value`) where Python allows them: if/elif/
# while tests, parenthesized expressions and call arguments; also in a
# function the JIT compiles.
import torch

data = [3, 8, 1, 9]
if (n := len(data)) > 3:
    print('long', n)
i = 0
while (v := data[i]) != 1:
    i += 1
print(i, v)


def grow(x):
    if (y := x * 2) > 5:
        return y
    elif (w := y + 1) > 3:
        return w
    return -y


print([grow(k) for k in range(5)])
print((z := 10) + z, z, max(m := [4, 2]), m)


def step(t, scale):
    if (total := (t * scale).sum().item()) > 1.0:
        t = t / total
    return t, total


t = torch.tensor([0.5, 1.5, 2.0])
for k in range(4):
    out, total = step(t, 1.0 + k)
    print(k, round(total, 4), [round(x, 4) for x in out.tolist()])

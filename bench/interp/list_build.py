# Building lists: append, comprehensions, indexing, len.
import time


def build(n):
    out = []
    for i in range(n):
        out.append(i * 2)
    squares = [x * x for x in out if x % 3 == 0]
    total = 0
    for j in range(len(squares)):
        total += squares[j] % 1000
    return total


t0 = time.perf_counter()
r = build(2_000_000)
print(f"lists = {r}  {time.perf_counter() - t0:.3f} s")

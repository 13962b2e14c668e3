# A 10M-iteration integer loop: the dispatch loop, locals, back-edges.
import time


def loop(n):
    total = 0
    i = 0
    while i < n:
        total += i % 7
        i += 1
    return total


t0 = time.perf_counter()
r = loop(10_000_000)
print(f"loop = {r}  {time.perf_counter() - t0:.3f} s")

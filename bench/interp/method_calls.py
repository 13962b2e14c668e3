# Method calls on instances: attribute lookup, bound calls, attribute stores.
import time


class Counter:
    def __init__(self):
        self.count = 0

    def add(self, k):
        self.count += k
        return self


def run(n):
    c = Counter()
    for i in range(n):
        c.add(i & 3)
    return c.count


t0 = time.perf_counter()
r = run(2_000_000)
print(f"methods = {r}  {time.perf_counter() - t0:.3f} s")

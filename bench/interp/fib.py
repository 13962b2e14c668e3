# Recursive calls: frame setup, argument binding, int arithmetic, comparisons.
import time


def fib(n):
    if n < 2:
        return n
    return fib(n - 1) + fib(n - 2)


t0 = time.perf_counter()
r = fib(25)
print(f"fib(25) = {r}  {time.perf_counter() - t0:.3f} s")

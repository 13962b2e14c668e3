# Workload (a) of the issue-6 suite: a pointwise chain, tanh-GELU of x*w+b over 4M float32.
# One text for both systems: `kiln run pointwise_gelu.py` and `python3 pointwise_gelu.py`;
# a first argument "compile" wraps the step in torch.compile. Prints one RESULT line.
import sys
import time

import torch

torch.set_num_threads(2)
MODE = sys.argv[1] if len(sys.argv) > 1 else "eager"


def bench(name, step, iters, nbytes, repeats=7, warmup=3):
    # Warm-up calls are timed one by one: what they take beyond the warm median is the
    # cold-start cost (capture and compilation), reported beside the steady-state time.
    cold = []
    for _ in range(warmup):
        t0 = time.perf_counter()
        step().reshape(-1)[0].item()
        cold.append((time.perf_counter() - t0) * 1000.0)
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        for _ in range(iters):
            # Reading one element of every result, as a program that uses it would, keeps a
            # lazy system from dropping the work of iterations whose result is overwritten.
            step().reshape(-1)[0].item()
        times.append((time.perf_counter() - t0) * 1000.0 / iters)
    times.sort()
    print(f"RESULT {name} median_ms={times[len(times) // 2]:.4f} min_ms={times[0]:.4f} "
          f"max_ms={times[-1]:.4f} iters={iters} repeats={repeats} bytes={nbytes} "
          f"cold_ms={','.join(f'{c:.3f}' for c in cold)}")


N = 4 * 1024 * 1024
torch.manual_seed(0)
x = torch.randn(N)
w = torch.randn(N)
b = torch.randn(N)


def gelu_chain(x, w, b):
    y = x * w + b
    return 0.5 * y * (1 + torch.tanh(0.7978845608 * (y + 0.044715 * y ** 3)))


fn = torch.compile(gelu_chain) if MODE == "compile" else gelu_chain


def step():
    return fn(x, w, b)


# The least a fused loop must move: read x, w, b and write y.
bench("pointwise_gelu", step, 20, 4 * N * 4)

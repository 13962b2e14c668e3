# Workload (b) of the issue-6 suite: layer_norm (with weight and bias) then GELU over [8192, 1024].
# One text for both systems: `kiln run layernorm_gelu.py` and `python3 layernorm_gelu.py`;
# a first argument "compile" wraps the step in torch.compile. Prints one RESULT line.
import sys
import time

import torch
import torch.nn.functional as F

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


ROWS = 8192
COLS = 1024
torch.manual_seed(0)
x = torch.randn(ROWS, COLS)
weight = torch.randn(COLS)
bias = torch.randn(COLS)


def layernorm_gelu(x, weight, bias):
    return F.gelu(F.layer_norm(x, (COLS,), weight, bias))


fn = torch.compile(layernorm_gelu) if MODE == "compile" else layernorm_gelu


def step():
    return fn(x, weight, bias)


# The least a fused loop must move: read x and write the result.
bench("layernorm_gelu", step, 10, 2 * ROWS * COLS * 4)

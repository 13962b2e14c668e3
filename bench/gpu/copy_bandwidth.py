# GPU benchmark: device-to-device copy bandwidth, x.clone() of 256M float32 (1 GiB a tensor), the
# yardstick the memory-bound benchmarks are measured against. One text for
# `kiln run --device cuda copy_bandwidth.py [DIV]` and `python3 copy_bandwidth.py [DIV]` (PyTorch);
# DIV divides the element count (the dry run on Kiln's emulated device uses small tensors).
# Prints one JSON line; bytes count the read and the write.
import sys
import time

import torch

DIV = int(sys.argv[1]) if len(sys.argv) > 1 else 1
DEV = "cuda"


def timed_ms(step, iters, reps=7, warmup=3):
    # The first repeats are warm-up: they cover capture and kernel compilation of the very graphs
    # the timed repeats run. Every result of a repeat stays referenced (a lazy system may not drop
    # any as dead), and the repeat ends by reading one element of the last: a lazy system must
    # then have run every step, and the device is idle when the clock stops. Median of the timed
    # repeats, per step.
    times = []
    for r in range(warmup + reps):
        outs = []
        torch.cuda.synchronize()
        t0 = time.perf_counter()
        for _ in range(iters):
            outs.append(step())
        outs[-1].reshape(-1)[0].item()
        torch.cuda.synchronize()
        if r >= warmup:
            times.append((time.perf_counter() - t0) * 1000.0 / iters)
        outs = None
    times.sort()
    return times[len(times) // 2]


def make_input(n):
    # randn of 256M elements takes Kiln seconds on the host: a block of random numbers tiled
    # over the tensor moves the same bytes through the same kernels.
    block = torch.randn(min(n, 1024 * 1024), device=DEV)
    return block.repeat((n // block.numel(),))  # Kiln: repeat takes a tuple, not varargs


def emit(fields):
    # No json module in Kiln's language: the line is written by hand.
    parts = []
    for key, value in fields:
        if isinstance(value, str):
            parts.append(f'"{key}": "{value}"')
        elif isinstance(value, int):
            parts.append(f'"{key}": {value}')
        else:
            parts.append(f'"{key}": {value:.4f}')
    print("{" + ", ".join(parts) + "}")

N = 256 * 1024 * 1024 // DIV
torch.manual_seed(0)
x = make_input(N)


def step():
    return x.clone()


ms = timed_ms(step, 2)
nbytes = 2 * N * 4
emit([("bench", "copy"), ("device", torch.cuda.get_device_name()), ("elements", N),
      ("median_ms", ms), ("gbps", nbytes / ms / 1e6), ("bytes", nbytes)])

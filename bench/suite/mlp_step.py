# Workloads (d) and (f) of the issue-6 suite: one SGD training step (forward, cross_entropy,
# backward, update) of an MLP 784-1024-1024-10. The second argument is the batch: 256 for (d),
# 1 for (f). At batch 1 the step is bound by the update's memory traffic (1.86M parameters); an
# optional third argument sets the hidden width (16: the 784-16-16-10 step, per-op overhead alone).
# One text for both systems: `kiln run mlp_step.py eager 256` and `python3 mlp_step.py eager 256`;
# a first argument "compile" wraps the step in torch.compile. Prints one RESULT line.
import sys
import time

import torch
import torch.nn as nn
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


BATCH = int(sys.argv[2]) if len(sys.argv) > 2 else 256
HIDDEN = int(sys.argv[3]) if len(sys.argv) > 3 else 1024


class MLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(784, HIDDEN)
        self.fc2 = nn.Linear(HIDDEN, HIDDEN)
        self.out = nn.Linear(HIDDEN, 10)

    def forward(self, x):
        x = F.relu(self.fc1(x))
        x = F.relu(self.fc2(x))
        return self.out(x)


torch.manual_seed(0)
model = MLP()
opt = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
x = torch.randn(BATCH, 784)
y = torch.randint(0, 10, (BATCH,))


def train_step():
    loss = F.cross_entropy(model(x), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss


step = torch.compile(train_step) if MODE == "compile" else train_step
n_params = sum(p.numel() for p in model.parameters())
name = "mlp_step" if BATCH == 256 else f"mlp_step_b{BATCH}"
if HIDDEN != 1024:
    name += f"_h{HIDDEN}"
# Bytes are not the bound here; the figure is the parameter traffic of one step, for reference.
bench(name, step, 10 if BATCH >= 64 else 100, n_params * 4)

# Copies the JIT may skip by moving a buffer (jit/passes/steal_copies.cpp): a
# gradient cloned into .grad and then read by the optimizer in the same graph,
# and a clone whose source a detached alias still reads, which must copy.
# Sizes are large enough for heap buffers (small tensors live inline).
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

# A training step whose whole update lies in one graph: each weight gradient
# comes from a gemm, is cloned into .grad and read by SGD's momentum update.
model = nn.Sequential(nn.Linear(12, 16), nn.ReLU(), nn.Linear(16, 4))
opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
x = torch.randn(32, 12)
y = torch.randint(0, 4, (32,))
for step in range(6):
    loss = F.cross_entropy(model(x), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(step, round(loss.item(), 5), round(model[0].weight.grad.sum().item(), 5),
          round(model[2].weight.grad.abs().sum().item(), 5))
print([round(v, 4) for v in model[0].weight[0].tolist()])
print([round(v, 4) for v in opt.state[model[2].weight]["momentum_buffer"][1].tolist()])


# A detached alias of a gemm's result read after the result is cloned: the
# alias must keep the product, whatever happens to the clone.
def product_and_copy(a, b):
    m = a @ b
    alias = m.detach()
    c = m.clone()
    return c, alias * 2


a = torch.randn(16, 8)
b = torch.randn(8, 16)
for i in range(5):
    c, doubled = product_and_copy(a, b + i)
    print(i, round(c.sum().item(), 4), round(doubled.sum().item(), 4), round(doubled[3, 5].item(), 4))


# The clone kept and its source read afterwards by a fused kernel.
def grad_like(a, b):
    m = a @ b
    kept = m.clone()
    return kept, torch.tanh(m) + 1


for i in range(4):
    kept, t = grad_like(a, b * (i + 1))
    print(i, round(kept.sum().item(), 4), round(t.sum().item(), 4))


# The source kept by the script through a detached alias or a view: the clone
# must copy, and the alias keep the product.
def alias_kept(a, b):
    m = a @ b
    alias = m.detach()
    return m.clone(), alias


def view_kept(a, b):
    m = a @ b
    return m.clone(), m.view(-1)


for i in range(4):
    c, al = alias_kept(a, b + i)
    c2, v = view_kept(a, b - i)
    print(i, round(c.sum().item(), 3), round(al.sum().item(), 3), round(c2.sum().item(), 3), round(v.sum().item(), 3))


# Batch 1: each weight gradient is an outer product (one term per element),
# which the JIT computes in the kernel that stores .grad and applies the
# momentum update. A batch of 3 in between runs the same graph with a real
# product (the kernel's inner-size guard refuses it), then batch 1 again.
model = nn.Sequential(nn.Linear(24, 32), nn.ReLU(), nn.Linear(32, 5))
opt = torch.optim.SGD(model.parameters(), lr=0.02, momentum=0.9)
xs = torch.randn(16, 24)
ys = torch.randint(0, 5, (16,))
for step in range(12):
    n = 3 if step in (6, 7) else 1
    loss = F.cross_entropy(model(xs[step:step + n]), ys[step:step + n])
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(step, n, round(loss.item(), 5), round(model[0].weight.grad.sum().item(), 5),
          round(model[0].weight.grad[7, 3].item(), 6), round(model[2].weight.grad.abs().sum().item(), 5))
print([round(v, 4) for v in model[0].weight[5].tolist()])
print([round(v, 4) for v in opt.state[model[0].weight]["momentum_buffer"][2].tolist()])

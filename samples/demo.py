# The PyTorch twin of samples/demo.cpp: run under CPython with PyTorch, it
# prints exactly what kiln_demo prints (samples/demo.expected was recorded
# from it with torch 2.x on x86-64).
import torch
import torch.nn.functional as F
torch.manual_seed(0)
x = torch.randn(256, 2)
r2 = (x * x).sum(1)
y = (r2 > torch.full((), 1.0)).to(torch.int64)
w1 = (torch.randn(16, 2) * 0.5).requires_grad_(True)
b1 = torch.zeros(16).requires_grad_(True)
w2 = (torch.randn(2, 16) * 0.5).requires_grad_(True)
b2 = torch.zeros(2).requires_grad_(True)
params = [w1, b1, w2, b2]
for step in range(201):
    h = F.gelu(F.linear(x, w1, b1))
    logits = F.linear(h, w2, b2)
    loss = F.cross_entropy(logits, y)
    for p in params: p.grad = None
    loss.backward()
    with torch.no_grad():
        for p in params: p.sub_(p.grad, alpha=0.5)
    if step % 50 == 0:
        acc = (logits.argmax(1) == y).float().mean()
        print("step %3d  loss %.4f  accuracy %.3f" % (step, loss.item(), acc.item()))
print("b2 =", b2)

# A running loss summed with float(loss) every step: float() of a tensor is
# .item() under another name, so every iteration of the hot loop breaks.
# expect graphs: 0
# expect breaks: none
import torch

torch.manual_seed(1)
w = torch.randn(6, 1, requires_grad=True)
x = torch.randn(32, 6)
y = torch.randn(32, 1)
running = 0.0
for step in range(12):
    loss = ((x @ w - y) ** 2).mean()
    loss.backward()
    with torch.no_grad():
        w -= 0.1 * w.grad
        w.grad.zero_()
    running += float(loss)
print(f"mean loss {running / 12:.5f}")

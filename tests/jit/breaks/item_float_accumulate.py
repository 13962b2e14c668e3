# A running loss summed with float(loss) every step: float() of a tensor is
# .item() under another name, so every iteration of the hot loop breaks.
# Steps 0-1: backward is its own region; step 0 creates w.grad and step 1
# accumulates into it, so 2 graphs (a recompile). From step 2 the loop's
# iteration is 1 graph, read by float(loss) at its end: 10 breaks (2-11).
# expect graphs: 3
# expect breaks: item@21 x10
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

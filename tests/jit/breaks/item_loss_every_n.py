# A training loop that logs loss.item() every few steps. Each logged step
# reads the loss into Python in the middle of the hot loop's iteration graph.
# expect graphs: 0
# expect breaks: none
import torch
import torch.nn.functional as F

torch.manual_seed(0)
x = torch.randn(64, 8)
y = x @ torch.randn(8, 1) + 0.1
model = torch.nn.Linear(8, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.05)

for step in range(20):
    opt.zero_grad()
    loss = F.mse_loss(model(x), y)
    loss.backward()
    opt.step()
    if step % 5 == 0:
        print(f"step {step}: loss {loss.item():.4f}")

# The compile-time target: an MLP training step (784-1024-1024-10,
# batch 256, SGD: forward, cross_entropy, backward, update) as one compiled
# function. bench/compile_time.sh runs it cold and warm and reads the compile
# time of its graphs from `kiln explain --json`.
import torch
import torch.nn.functional as F

torch.manual_seed(0)
model = torch.nn.Sequential(torch.nn.Linear(784, 1024), torch.nn.ReLU(), torch.nn.Linear(1024, 1024), torch.nn.ReLU(),
                            torch.nn.Linear(1024, 10))
opt = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)


@torch.compile
def step(x, y):
    opt.zero_grad()
    loss = F.cross_entropy(model(x), y)
    loss.backward()
    opt.step()
    return loss


x = torch.randn(256, 784)
y = torch.randint(0, 10, (256,))
for i in range(3):
    loss = step(x, y)
print(round(loss.item(), 4))

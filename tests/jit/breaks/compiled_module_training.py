# A torch.compile'd model trained in a loop that logs loss.item() every few
# steps: the model's graphs are captured with the loop's iterations once the
# loop is hot.
# expect graphs: 0
# expect breaks: none
import torch
import torch.nn.functional as F

torch.manual_seed(14)
model = torch.compile(torch.nn.Sequential(torch.nn.Linear(4, 8), torch.nn.Tanh(), torch.nn.Linear(8, 2)))
opt = torch.optim.SGD(model.parameters(), lr=0.1)
x = torch.randn(20, 4)
y = torch.randint(0, 2, (20,))
for step in range(9):
    opt.zero_grad()
    loss = F.cross_entropy(model(x), y)
    loss.backward()
    opt.step()
    if step % 4 == 0:
        print(step, round(loss.item(), 4))

# A torch.compile'd model trained in a loop that logs loss.item() every few
# steps: the model's graphs are captured with the loop's iterations once the
# loop is hot.
# Steps 0-2: the compiled model's region (1 graph, 3 runs), backward (1
# graph) and SGD's per-parameter loop (hot from the third parameter of step 0:
# graphs for a 1-d, a 1-d made dynamic, and a 2-d parameter), SGD.step (third
# call, step 2: 1 graph). Steps 3-8: the loop's region, whose iteration graph
# inlines the compiled model (1 graph); .item() at steps 4 and 8.
# expect graphs: 7
# expect breaks: item@26 x2
# expect region: compiled Sequential
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

# A torch.compile'd model trained in a loop that logs loss.item() every few
# steps: the model's graphs are captured with the loop's iterations once hot.
# Steps 0-1: the compiled model's region (1 graph, 2 runs), backward (1
# graph) and SGD's loop over 4 parameters (hot from step 0's second
# back-edge: a 2-d and a 1-d parameter, 2 graphs, the dims recompile makes it
# unroll; step 1's other 3 updates, 1 more graph, recompiled). Steps 2-8:
# the loop's region, whose iteration graph inlines the compiled model and
# SGD.step (1 graph); .item() at steps 4 and 8.
# expect graphs: 6
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

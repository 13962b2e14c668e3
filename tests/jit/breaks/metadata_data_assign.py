# Weight clipping through `.data =`: assigning .data swaps a tensor's storage
# and shape while pending ops still hold the old ones.
# Calls 1-2: backward (1 graph) and SGD's per-parameter loop (hot in call 2:
# 1 graph). Call 3 is a function region, calls 4-5 run in the loop region: in
# each the clamp and everything before it run at the .data assignment.
# expect graphs: 4
# expect breaks: metadata_mutation@22 x3
# expect region: function critic_step
import torch

torch.manual_seed(10)
critic = torch.nn.Linear(4, 1)
opt = torch.optim.SGD(critic.parameters(), lr=0.5)
x = torch.randn(16, 4)


def critic_step():
    opt.zero_grad()
    loss = -critic(x).mean()
    loss.backward()
    opt.step()
    critic.weight.data = critic.weight.clamp(-0.1, 0.1)


for i in range(5):
    critic_step()
print(critic.weight)

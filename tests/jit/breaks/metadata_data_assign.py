# Weight clipping through `.data =`: assigning .data swaps a tensor's storage
# and shape while pending ops still hold the old ones.
# expect graphs: 0
# expect breaks: none
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

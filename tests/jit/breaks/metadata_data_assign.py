# Weight clipping through `.data =`: swaps a tensor's storage while pending
# ops hold the old one. Calls 1-2: backward (1 graph) and SGD's loop over 2
# parameters (hot from call 1's last back-edge: call 2's bias update, 1
# graph). The loop is a region from call 3 (critic_step's third call inlined):
# calls 3-5 are 1 graph, run at the .data assignment each time: 3 breaks.
# expect graphs: 3
# expect breaks: metadata_mutation@22 x3
# expect region: loop loop at metadata_data_assign.py:25 in <module>
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

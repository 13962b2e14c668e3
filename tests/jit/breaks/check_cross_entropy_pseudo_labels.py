# Self-training with pseudo-labels: the targets of cross_entropy are the
# model's own argmax, computed in the graph, and nll_loss validates targets.
# The forward and argmax run ahead as a side graph when nll_loss checks its
# targets; log_softmax, already recorded, does not need them and stays in the
# captured graph, which goes on: no graph break. Graph 2 is the loss;
# backward outside the compiled call is a third.
# expect graphs: 3
# expect breaks: none
import torch
import torch.nn.functional as F

torch.manual_seed(9)
model = torch.nn.Linear(6, 4)


@torch.compile
def pseudo_label_loss(x):
    logits = model(x)
    targets = logits.detach().argmax(dim=1)
    return F.cross_entropy(logits, targets)


loss = pseudo_label_loss(torch.randn(8, 6))
loss.backward()
print(f"{loss.item():.5f}", model.weight.grad.shape)

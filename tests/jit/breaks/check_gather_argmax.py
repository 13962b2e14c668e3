# The probability of each row's predicted class, gathered by the argmax
# computed in the graph: gather validates its index, so the index runs first.
# The argmax runs ahead as a side graph when gather checks its index; the
# softmax, recorded before, does not need it and stays in the captured graph
# (graph 2, with the gather): no graph break.
# expect graphs: 2
# expect breaks: none
import torch


@torch.compile
def confidence(logits):
    probs = torch.softmax(logits, dim=1)
    pred = logits.argmax(dim=1, keepdim=True)
    return torch.gather(probs, 1, pred).flatten()


print(confidence(torch.tensor([[0.1, 0.9, 0.4], [0.8, 0.2, 0.5]])))

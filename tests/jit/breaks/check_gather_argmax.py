# The probability of each row's predicted class, gathered by the argmax
# computed in the graph: gather validates its index, so the index runs first.
# Graph 1 (softmax, argmax) runs when gather checks its index; graph 2 is the
# gather.
# expect graphs: 2
# expect breaks: data_dependent_check@14
import torch


@torch.compile
def confidence(logits):
    probs = torch.softmax(logits, dim=1)
    pred = logits.argmax(dim=1, keepdim=True)
    return torch.gather(probs, 1, pred).flatten()


print(confidence(torch.tensor([[0.1, 0.9, 0.4], [0.8, 0.2, 0.5]])))

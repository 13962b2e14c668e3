# Per-class hit counts turned into a Python list with .tolist() inside a
# compiled metric function.
# One call: the whole metric is one graph (the Python loop unrolls into it),
# read by .tolist() at the end.
# expect graphs: 1
# expect breaks: tolist@19 x1
# expect region: compiled per_class_hits
import torch

torch.manual_seed(4)


@torch.compile
def per_class_hits(logits, labels):
    pred = logits.argmax(dim=1)
    hits = torch.zeros(3)
    for c in range(3):
        hits[c] = ((pred == c) & (labels == c)).float().sum()
    return hits.tolist()


logits = torch.randn(30, 3)
labels = torch.randint(0, 3, (30,))
print(per_class_hits(logits, labels))

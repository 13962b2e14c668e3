# Per-class hit counts turned into a Python list with .tolist() inside a
# compiled metric function.
# expect graphs: 0
# expect breaks: none
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

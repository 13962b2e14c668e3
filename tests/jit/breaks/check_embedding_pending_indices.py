# Token ids computed inside the compiled function (the argmax of a previous
# step's logits) feed an embedding: the ids must be checked against the table
# size before the lookup, so they are computed first.
# expect graphs: 0
# expect breaks: none
import torch

torch.manual_seed(8)
emb = torch.nn.Embedding(10, 4)
proj = torch.nn.Linear(4, 10)


@torch.compile
def next_embedding(logits):
    ids = logits.argmax(dim=-1)
    return proj(emb(ids))


with torch.no_grad():
    print(next_embedding(torch.randn(2, 10)).shape)

# Token ids computed inside the compiled function (the argmax of a previous
# step's logits) feed an embedding: the ids must be checked against the table
# size before the lookup, so they are computed first.
# Graph 1 (the argmax) runs when the embedding checks its ids; graph 2 is the
# lookup and projection. The check runs inside the prelude's Embedding.forward;
# the break is reported at the script's line that called it.
# expect graphs: 2
# expect breaks: data_dependent_check@20
# expect stack: data_dependent_check@20 next_embedding <- <module>
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

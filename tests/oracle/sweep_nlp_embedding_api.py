# Embedding.from_pretrained, EmbeddingBag.from_pretrained, Module.get_parameter
# and get_buffer, named_parameters(remove_duplicate=False) with tied weights.
import torch
import torch.nn as nn

torch.manual_seed(0)
pre = torch.arange(12.).reshape(4, 3)
e = nn.Embedding.from_pretrained(pre)
print(e, e.weight.requires_grad, e(torch.tensor([3, 1])).tolist())
e = nn.Embedding.from_pretrained(pre, freeze=False, padding_idx=1, max_norm=5.0)
print(e, e.weight.requires_grad)
out = e(torch.tensor([[1, 2], [0, 1]]))
out.sum().backward()
print(e.weight.grad.tolist())
print([round(v, 4) for v in e.weight[2].tolist()])
bag = nn.EmbeddingBag.from_pretrained(pre, mode='sum')
print(bag, [[round(v, 4) for v in row] for row in bag(torch.tensor([[0, 1], [2, 3]])).tolist()])
try:
    nn.Embedding.from_pretrained(torch.zeros(3))
except AssertionError as ex:
    print("AssertionError:", ex)


class LM(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(7, 4)
        self.blocks = nn.Sequential(nn.Linear(4, 4), nn.LayerNorm(4))
        self.head = nn.Linear(4, 7, bias=False)
        self.head.weight = self.emb.weight
        self.register_buffer('pos', torch.arange(5))
        self.register_buffer('scratch', torch.zeros(2), persistent=False)


m = LM()
print([n for n, _ in m.named_parameters()])
print([n for n, _ in m.named_parameters(remove_duplicate=False)])
print([n for n, _ in m.named_buffers(remove_duplicate=False)])
print(tuple(m.get_parameter('blocks.1.weight').shape), m.get_parameter('head.weight') is m.emb.weight)
print(m.get_buffer('pos').tolist(), m.get_buffer('scratch').tolist())
for target in ('blocks.0.nothing', 'pos'):
    try:
        m.get_parameter(target)
    except AttributeError as ex:
        print("AttributeError:", ex)

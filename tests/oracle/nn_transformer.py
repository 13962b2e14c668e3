# nn.MultiheadAttention and the transformer layers: PyTorch's parameters,
# init order and arithmetic (weights and SDPA paths, masks, key padding,
# batch_first, unbatched input), copy.deepcopy of modules, and a tiny
# encoder trained for a few steps.
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F


def show(*xs):
    # Values to 6 decimals, one line per call whatever the device (a tensor's
    # repr wraps differently with a device suffix).
    print(*[[round(v, 6) for v in x.detach().reshape(-1).tolist()] if isinstance(x, torch.Tensor) else x
            for x in xs])

torch.manual_seed(0)
mha = nn.MultiheadAttention(8, 2)
print(mha)
print([(n, tuple(p.shape)) for n, p in mha.named_parameters()])
q = torch.randn(5, 3, 8)
o, w = mha(q, q, q)
show(o.shape, w.shape, o[0, 0], w[0, 0])
mask = nn.Transformer.generate_square_subsequent_mask(5)
show(mask)
o2, w2 = mha(q, q, q, attn_mask=mask, need_weights=False)
show(o2[-1, -1], w2)
kpm = torch.tensor([[False, False, False, True, True]] * 3)
o3, w3 = mha(q, q, q, key_padding_mask=kpm, average_attn_weights=False)
show(o3[1, 2], w3.shape, w3[1, 1, 0])
kv = torch.randn(4, 3, 8)
o4, w4 = mha(q, kv, kv)
show(o4[2, 1], w4[0, -1])
show(mha(q[:, 0], q[:, 0], q[:, 0])[0][0])
cross = nn.MultiheadAttention(8, 4, kdim=6, vdim=5, batch_first=True)
print([n for n, _ in cross.named_parameters()])
show(cross(q.transpose(0, 1), torch.randn(3, 4, 6), torch.randn(3, 4, 5))[0][0, 0])

enc = nn.TransformerEncoderLayer(8, 2, dim_feedforward=16, dropout=0.0)
print([n for n, _ in enc.named_children()])
show(enc(q)[0, 0])
show(enc(q, src_mask=mask, src_key_padding_mask=kpm)[1, 1])
gelu = nn.TransformerEncoderLayer(8, 2, 16, 0.0, activation='gelu', norm_first=True, batch_first=True)
show(gelu(q.transpose(0, 1))[0, 0])
stack = nn.TransformerEncoder(nn.TransformerEncoderLayer(8, 2, 16, 0.0), 2, norm=nn.LayerNorm(8))
print(len(stack.layers), torch.equal(stack.layers[0].linear1.weight, stack.layers[1].linear1.weight),
      stack.layers[0].linear1.weight is stack.layers[1].linear1.weight)
show(stack(q, mask=mask)[0, 0])
dec = nn.TransformerDecoderLayer(8, 2, 16, 0.0)
show(dec(q, kv, tgt_mask=mask)[0, 0])
model = nn.Transformer(8, 2, 1, 1, 16, 0.0)
print(sum(p.numel() for p in model.parameters()))
show(model(torch.randn(4, 2, 8), torch.randn(3, 2, 8), tgt_mask=model.generate_square_subsequent_mask(3))[0])

twin = copy.deepcopy(enc)
with torch.no_grad():
    twin.linear1.weight.add_(1.0)
print(torch.equal(twin.norm1.weight, enc.norm1.weight), torch.equal(twin.linear1.weight, enc.linear1.weight),
      type(twin.linear1.weight).__name__)


class Classifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = nn.Embedding(10, 16)
        self.encoder = nn.TransformerEncoder(nn.TransformerEncoderLayer(16, 4, 32, 0.0, batch_first=True), 2)
        self.head = nn.Linear(16, 2)

    def forward(self, tokens):
        return self.head(self.encoder(self.embed(tokens)).mean(dim=1))


torch.manual_seed(2)
tokens = torch.randint(0, 10, (8, 6))
labels = (tokens.sum(dim=1) > 27).long()
clf = Classifier()
opt = torch.optim.AdamW(clf.parameters(), lr=0.01)
for step in range(4):
    opt.zero_grad()
    loss = F.cross_entropy(clf(tokens), labels)
    loss.backward()
    opt.step()
    print(step, round(loss.item(), 5))

# Autoregressive generation: each step feeds a sequence one token longer, and
# the model passes that length on as Python ints (torch.arange(T), a [T, T]
# causal mask, view(B, T, C), slices). The first recompile makes the changed
# dims dynamic and the ints that changed with them runtime values (what
# torch.compile's automatic dynamic shapes does with SymInts), so twelve
# lengths cost one recompile per region, not one graph per length and the
# cache limit. Ints that name dims (sum's dim) still specialize:
# constant_change.py.
#
# expect in loop:* recompiles: <=2
# expect in loop:* every recompile: made_dynamic=true
# expect in loop:* graphs: <=3
# expect in loop:* graphs: >=1 ir~"ones(size=[?, ?]"
# expect warnings: 0
# expect eager_runs: 0
# expect breaks: 0
import torch
import torch.nn.functional as F

torch.manual_seed(0)
C, V = 8, 11
emb = torch.randn(V, C)
pos = torch.randn(32, C)
wq, wk, wv = torch.randn(C, C), torch.randn(C, C), torch.randn(C, C)
head = torch.randn(C, V)
idx = torch.tensor([[3]])
for step in range(12):
    T = idx.size(1)
    x = emb[idx] + pos[torch.arange(T)]
    q, k, v = x @ wq, x @ wk, x @ wv
    att = (q @ k.transpose(-2, -1)) / C ** 0.5
    mask = torch.ones(T, T).triu(1).bool()
    att = att.masked_fill(mask.view(1, T, T), float('-inf')).softmax(-1)
    y = (att @ v).view(1, T, C)
    logits = y[:, -1, :] @ head
    nxt = logits.argmax(-1, keepdim=True)
    idx = torch.cat([idx, nxt], dim=1)
print(idx.tolist())
print(logits)

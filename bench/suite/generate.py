# Autoregressive generation outside the issue-6 suite: a 2-layer GPT (d_model 64,
# 4 heads, nn.MultiheadAttention with a causal mask, vocabulary 65) samples 200
# tokens, one at a time, its context growing to a 64-token window: every step
# has a new sequence length until the window is full. One text for both systems:
# `kiln run generate.py` and `python3 generate.py`. Prints the median of 5 runs.
import time
import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)
torch.set_num_threads(2)
class Block(nn.Module):
    def __init__(self, d, h):
        super().__init__()
        self.ln1 = nn.LayerNorm(d)
        self.ln2 = nn.LayerNorm(d)
        self.attn = nn.MultiheadAttention(d, h, batch_first=True)
        self.mlp = nn.Sequential(nn.Linear(d, 4 * d), nn.GELU(), nn.Linear(4 * d, d))
    def forward(self, x):
        T = x.size(1)
        mask = torch.triu(torch.ones(T, T, dtype=torch.bool), 1)
        h = self.ln1(x)
        x = x + self.attn(h, h, h, attn_mask=mask, need_weights=False)[0]
        return x + self.mlp(self.ln2(x))
class GPT(nn.Module):
    def __init__(self, V=65, d=64, h=4, L=2, T=64):
        super().__init__()
        self.tok = nn.Embedding(V, d)
        self.pos = nn.Embedding(T, d)
        self.blocks = nn.Sequential(*[Block(d, h) for _ in range(L)])
        self.ln = nn.LayerNorm(d)
        self.head = nn.Linear(d, V)
    def forward(self, idx):
        T = idx.size(1)
        x = self.tok(idx) + self.pos(torch.arange(T))
        return self.head(self.ln(self.blocks(x)))
model = GPT().eval()
def generate(n):
    idx = torch.zeros(1, 1, dtype=torch.long)
    with torch.no_grad():
        for _ in range(n):
            logits = model(idx[:, -64:])
            probs = F.softmax(logits[:, -1, :], dim=-1)
            idx = torch.cat([idx, torch.multinomial(probs, 1)], 1)
    return idx
first = time.perf_counter()
generate(200)
print('first run (compiles included): %.1f ms' % ((time.perf_counter() - first) * 1000))
ts = []
for r in range(5):
    t0 = time.perf_counter()
    generate(200)
    ts.append((time.perf_counter() - t0) * 1000)
ts.sort()
print('generate 200 tokens: median %.1f ms (min %.1f)' % (ts[2], ts[0]))

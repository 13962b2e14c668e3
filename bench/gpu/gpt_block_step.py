# GPU benchmark: one AdamW training step of the small GPT block of bench/suite/gpt_block_step.py
# (token and position embeddings, one pre-LayerNorm block with 4-head causal self-attention and a
# GELU MLP, final LayerNorm and head, cross_entropy; d_model 256, seq 128, batch 16), on the GPU.
# One text for `kiln run --device cuda gpt_block_step.py [DIV]` and `python3 gpt_block_step.py
# [DIV]` (PyTorch eager); DIV > 1 (the dry run on Kiln's emulated device) divides the batch.
# Prints one JSON line: ms per step.
import math
import sys
import time

import torch
import torch.nn as nn
import torch.nn.functional as F

DIV = int(sys.argv[1]) if len(sys.argv) > 1 else 1
DEV = "cuda"


def timed_ms(step, iters, reps=7, warmup=3):
    # The first repeats are warm-up: they cover capture and kernel compilation of the very graphs
    # the timed repeats run. Every result of a repeat stays referenced (a lazy system may not drop
    # any as dead), and the repeat ends by reading one element of the last: a lazy system must
    # then have run every step, and the device is idle when the clock stops. Median of the timed
    # repeats, per step.
    times = []
    for r in range(warmup + reps):
        outs = []
        torch.cuda.synchronize()
        t0 = time.perf_counter()
        for _ in range(iters):
            outs.append(step())
        outs[-1].reshape(-1)[0].item()
        torch.cuda.synchronize()
        if r >= warmup:
            times.append((time.perf_counter() - t0) * 1000.0 / iters)
        outs = None
    times.sort()
    return times[len(times) // 2]


def emit(fields):
    # No json module in Kiln's language: the line is written by hand.
    parts = []
    for key, value in fields:
        if isinstance(value, str):
            parts.append(f'"{key}": "{value}"')
        elif isinstance(value, int):
            parts.append(f'"{key}": {value}')
        else:
            parts.append(f'"{key}": {value:.4f}')
    print("{" + ", ".join(parts) + "}")


VOCAB = 96
D_MODEL = 256
N_HEAD = 4
SEQ = 128
BATCH = 16


class CausalSelfAttention(nn.Module):
    def __init__(self):
        super().__init__()
        self.qkv = nn.Linear(D_MODEL, 3 * D_MODEL)
        self.proj = nn.Linear(D_MODEL, D_MODEL)
        mask = torch.tril(torch.ones(SEQ, SEQ, device=DEV)).view(1, 1, SEQ, SEQ)
        self.register_buffer("mask", mask)

    def forward(self, x):
        B, T, C = x.shape
        hs = C // N_HEAD
        q, k, v = self.qkv(x).split(D_MODEL, dim=2)
        q = q.view(B, T, N_HEAD, hs).transpose(1, 2)
        k = k.view(B, T, N_HEAD, hs).transpose(1, 2)
        v = v.view(B, T, N_HEAD, hs).transpose(1, 2)
        att = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(hs))
        att = att.masked_fill(self.mask[:, :, :T, :T] == 0, float("-inf"))
        att = F.softmax(att, dim=-1)
        y = (att @ v).transpose(1, 2).contiguous().view(B, T, C)
        return self.proj(y)


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.ln1 = nn.LayerNorm(D_MODEL)
        self.attn = CausalSelfAttention()
        self.ln2 = nn.LayerNorm(D_MODEL)
        self.fc = nn.Linear(D_MODEL, 4 * D_MODEL)
        self.fc_proj = nn.Linear(4 * D_MODEL, D_MODEL)

    def forward(self, x):
        x = x + self.attn(self.ln1(x))
        return x + self.fc_proj(F.gelu(self.fc(self.ln2(x))))


class TinyGPT(nn.Module):
    def __init__(self):
        super().__init__()
        self.tok_emb = nn.Embedding(VOCAB, D_MODEL)
        self.pos_emb = nn.Embedding(SEQ, D_MODEL)
        self.block = Block()
        self.ln_f = nn.LayerNorm(D_MODEL)
        self.head = nn.Linear(D_MODEL, VOCAB)

    def forward(self, idx, targets):
        B, T = idx.shape
        x = self.tok_emb(idx) + self.pos_emb(torch.arange(T, device=idx.device))
        logits = self.head(self.ln_f(self.block(x)))
        return F.cross_entropy(logits.view(B * T, VOCAB), targets.view(B * T))



torch.manual_seed(0)
model = TinyGPT().to(DEV)
opt = torch.optim.AdamW(model.parameters(), lr=3e-4, weight_decay=0.01)
batch = max(1, BATCH // DIV)
idx = torch.randint(0, VOCAB, (batch, SEQ), device=DEV)
targets = torch.randint(0, VOCAB, (batch, SEQ), device=DEV)


def train_step():
    loss = model(idx, targets)
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss


ms = timed_ms(train_step, 5)
emit([("bench", "gpt_block_step"), ("device", torch.cuda.get_device_name()), ("batch", batch),
      ("median_ms", ms), ("loss", train_step().item())])

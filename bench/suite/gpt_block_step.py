# Workload (e) of the issue-6 suite: one AdamW training step of a small GPT block (token and
# position embeddings, one pre-LayerNorm block with 4-head causal self-attention and a GELU MLP,
# final LayerNorm and head, cross_entropy): d_model 256, seq 128, batch 16.
# One text for both systems: `kiln run gpt_block_step.py` and `python3 gpt_block_step.py`;
# a first argument "compile" wraps the step in torch.compile. Prints one RESULT line.
import math
import sys
import time

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.set_num_threads(2)
MODE = sys.argv[1] if len(sys.argv) > 1 else "eager"


def bench(name, step, iters, nbytes, repeats=7, warmup=3):
    # Warm-up calls are timed one by one: what they take beyond the warm median is the
    # cold-start cost (capture and compilation), reported beside the steady-state time.
    cold = []
    for _ in range(warmup):
        t0 = time.perf_counter()
        step().reshape(-1)[0].item()
        cold.append((time.perf_counter() - t0) * 1000.0)
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        for _ in range(iters):
            # Reading one element of every result, as a program that uses it would, keeps a
            # lazy system from dropping the work of iterations whose result is overwritten.
            step().reshape(-1)[0].item()
        times.append((time.perf_counter() - t0) * 1000.0 / iters)
    times.sort()
    print(f"RESULT {name} median_ms={times[len(times) // 2]:.4f} min_ms={times[0]:.4f} "
          f"max_ms={times[-1]:.4f} iters={iters} repeats={repeats} bytes={nbytes} "
          f"cold_ms={','.join(f'{c:.3f}' for c in cold)}")


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
        mask = torch.tril(torch.ones(SEQ, SEQ)).view(1, 1, SEQ, SEQ)
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
        x = self.tok_emb(idx) + self.pos_emb(torch.arange(T))
        logits = self.head(self.ln_f(self.block(x)))
        return F.cross_entropy(logits.view(B * T, VOCAB), targets.view(B * T))


torch.manual_seed(0)
model = TinyGPT()
opt = torch.optim.AdamW(model.parameters(), lr=3e-4, weight_decay=0.01)
idx = torch.randint(0, VOCAB, (BATCH, SEQ))
targets = torch.randint(0, VOCAB, (BATCH, SEQ))


def train_step():
    loss = model(idx, targets)
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss


step = torch.compile(train_step) if MODE == "compile" else train_step
n_params = sum(p.numel() for p in model.parameters())
# Bytes are not the bound here; the figure is the parameter traffic of one step, for reference.
bench("gpt_block_step", step, 5, n_params * 4)

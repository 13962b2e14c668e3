# A tiny LLaMA-style model as modern training scripts write it: dataclass
# configs (kw_only, KW_ONLY, InitVar, default_factory, replace/asdict,
# frozen), RMSNorm, RoPE through torch.polar/view_as_complex, grouped-query
# attention, SwiGLU, weight tying, per-parameter attributes that pick the
# weight-decay groups, a foreach EMA, module hooks (forward with kwargs,
# full backward and backward pre-hooks), LoRA through parametrize, and
# checkpoints through io.BytesIO (tied weights, load_state_dict(assign=True),
# extra state, set_submodule), and optimizer steps run in backward through
# register_post_accumulate_grad_hook.
import io
import math
import copy
import dataclasses
from dataclasses import dataclass, field, asdict, replace, fields, InitVar, KW_ONLY
from typing import List, Optional
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.nn.utils.parametrize as parametrize

torch.manual_seed(0)


@dataclass
class ModelArgs:
    dim: int = 16
    n_layers: int = 2
    n_heads: int = 4
    n_kv_heads: Optional[int] = 2
    vocab_size: int = 32
    _: KW_ONLY
    multiple_of: int = 8
    norm_eps: float = 1e-5
    max_seq_len: int = 16
    lora_targets: List[str] = field(default_factory=lambda: ["wq", "wv"])
    scale_hidden: InitVar[float] = 1.0

    def __post_init__(self, scale_hidden):
        self.hidden = int(scale_hidden * 4 * self.dim)


@dataclass(frozen=True, kw_only=True)
class TrainConfig:
    lr: float = 3e-3
    steps: int = 4
    weight_decay: float = 0.1
    ema_decay: float = 0.9


@dataclass(order=True)
class Checkpoint:
    step: int
    loss: float = field(compare=False)
    tags: list = field(default_factory=list, repr=False)

    def __repr__(self):
        return 'Checkpoint@' + str(self.step)


args = ModelArgs(n_layers=2, multiple_of=4, scale_hidden=0.75)
print(args)
print(asdict(args))
print([(f.name, f.kw_only) for f in fields(ModelArgs)], ModelArgs.__match_args__)
args2 = replace(args, n_heads=2, scale_hidden=2.0)
print(args2.n_heads, args2.hidden, args2 == args, replace(args2, n_heads=4, scale_hidden=0.75) == args)
for bad in (lambda: ModelArgs(16, 2, 4, 2, 32, 8), lambda: replace(args, n_heads=2), lambda: TrainConfig(1e-3)):
    try:
        bad()
    except (TypeError, ValueError) as e:
        print(type(e).__name__ + ':', e)
tc = TrainConfig(steps=4)
try:
    tc.lr = 1.0
except dataclasses.FrozenInstanceError as e:
    print('frozen:', e)
print(tc, hash(tc) == hash(TrainConfig(steps=4)), TrainConfig.__hash__ is not None, ModelArgs.__hash__)
cks = sorted([Checkpoint(3, 0.5), Checkpoint(1, 0.9, ["a"]), Checkpoint(2, 0.7)])
print(cks, Checkpoint(1, 0.1) == Checkpoint(1, 0.2), fields(Checkpoint)[2].metadata)


class RMSNorm(nn.Module):
    def __init__(self, dim, eps=1e-6):
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(torch.ones(dim))

    def forward(self, x):
        return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + self.eps) * self.weight


def precompute_freqs_cis(dim, end, theta=10000.0):
    freqs = 1.0 / (theta ** (torch.arange(0, dim, 2)[: (dim // 2)].float() / dim))
    t = torch.arange(end, dtype=torch.float32)
    freqs = torch.outer(t, freqs)
    return torch.polar(torch.ones_like(freqs), freqs)


def apply_rotary_emb(xq, xk, freqs_cis):
    xq_ = torch.view_as_complex(xq.float().reshape(*xq.shape[:-1], -1, 2))
    xk_ = torch.view_as_complex(xk.float().reshape(*xk.shape[:-1], -1, 2))
    freqs_cis = freqs_cis.view(1, xq_.shape[1], 1, xq_.shape[-1])
    xq_out = torch.view_as_real(xq_ * freqs_cis).flatten(3)
    xk_out = torch.view_as_real(xk_ * freqs_cis).flatten(3)
    return xq_out.type_as(xq), xk_out.type_as(xk)


def repeat_kv(x, n_rep):
    bs, slen, n_kv_heads, head_dim = x.shape
    if n_rep == 1:
        return x
    return x[:, :, :, None, :].expand(bs, slen, n_kv_heads, n_rep, head_dim).reshape(bs, slen, n_kv_heads * n_rep,
                                                                                     head_dim)


class Attention(nn.Module):
    def __init__(self, a):
        super().__init__()
        self.n_heads = a.n_heads
        self.n_kv_heads = a.n_heads if a.n_kv_heads is None else a.n_kv_heads
        self.head_dim = a.dim // a.n_heads
        self.wq = nn.Linear(a.dim, a.n_heads * self.head_dim, bias=False)
        self.wk = nn.Linear(a.dim, self.n_kv_heads * self.head_dim, bias=False)
        self.wv = nn.Linear(a.dim, self.n_kv_heads * self.head_dim, bias=False)
        self.wo = nn.Linear(a.n_heads * self.head_dim, a.dim, bias=False)

    def forward(self, x, freqs_cis, mask=None):
        bsz, seqlen, _ = x.shape
        xq = self.wq(x).view(bsz, seqlen, self.n_heads, self.head_dim)
        xk = self.wk(x).view(bsz, seqlen, self.n_kv_heads, self.head_dim)
        xv = self.wv(x).view(bsz, seqlen, self.n_kv_heads, self.head_dim)
        xq, xk = apply_rotary_emb(xq, xk, freqs_cis)
        keys = repeat_kv(xk, self.n_heads // self.n_kv_heads).transpose(1, 2)
        values = repeat_kv(xv, self.n_heads // self.n_kv_heads).transpose(1, 2)
        scores = torch.matmul(xq.transpose(1, 2), keys.transpose(2, 3)) / math.sqrt(self.head_dim)
        if mask is not None:
            scores = scores + mask
        out = torch.matmul(F.softmax(scores.float(), dim=-1).type_as(xq), values)
        return self.wo(out.transpose(1, 2).contiguous().view(bsz, seqlen, -1))


class FeedForward(nn.Module):
    def __init__(self, dim, hidden, multiple_of):
        super().__init__()
        hidden = multiple_of * ((int(2 * hidden / 3) + multiple_of - 1) // multiple_of)
        self.w1 = nn.Linear(dim, hidden, bias=False)
        self.w2 = nn.Linear(hidden, dim, bias=False)
        self.w3 = nn.Linear(dim, hidden, bias=False)

    def forward(self, x):
        return self.w2(F.silu(self.w1(x)) * self.w3(x))


class Block(nn.Module):
    def __init__(self, a):
        super().__init__()
        self.attention = Attention(a)
        self.feed_forward = FeedForward(a.dim, a.hidden, a.multiple_of)
        self.attention_norm = RMSNorm(a.dim, eps=a.norm_eps)
        self.ffn_norm = RMSNorm(a.dim, eps=a.norm_eps)

    def forward(self, x, freqs_cis, mask=None):
        h = x + self.attention(self.attention_norm(x), freqs_cis, mask=mask)
        return h + self.feed_forward(self.ffn_norm(h))


class Transformer(nn.Module):
    def __init__(self, a):
        super().__init__()
        self.tok_embeddings = nn.Embedding(a.vocab_size, a.dim)
        self.layers = nn.ModuleList([Block(a) for _ in range(a.n_layers)])
        self.norm = RMSNorm(a.dim, eps=a.norm_eps)
        self.output = nn.Linear(a.dim, a.vocab_size, bias=False)
        self.output.weight = self.tok_embeddings.weight
        self.freqs_cis = precompute_freqs_cis(a.dim // a.n_heads, a.max_seq_len * 2)
        self.step_count = 0
        for pn, p in self.named_parameters():
            p._no_weight_decay = p.ndim < 2 or 'norm' in pn
            if pn.endswith('w3.weight') or pn.endswith('wo.weight'):
                nn.init.normal_(p, mean=0.0, std=0.02 / math.sqrt(2 * a.n_layers))

    def get_extra_state(self):
        return {'step_count': self.step_count}

    def set_extra_state(self, state):
        self.step_count = state['step_count']

    def forward(self, tokens):
        _, seqlen = tokens.shape
        h = self.tok_embeddings(tokens)
        mask = torch.triu(torch.full((seqlen, seqlen), float('-inf')), diagonal=1)
        for layer in self.layers:
            h = layer(h, self.freqs_cis[:seqlen], mask=mask)
        return self.output(self.norm(h)).float()


model = Transformer(args)
print(model.output.weight is model.tok_embeddings.weight, model.layers[0].feed_forward.w1)
print(list(model.state_dict().keys())[-3:])
decay = [p for p in model.parameters() if not p._no_weight_decay]
no_decay = [p for p in model.parameters() if p._no_weight_decay]
print(len(decay), len(no_decay), hasattr(torch.ones(1), '_no_weight_decay'))
opt = torch.optim.AdamW([{'params': decay, 'weight_decay': tc.weight_decay}, {'params': no_decay, 'weight_decay': 0.0}],
                        lr=tc.lr)
ema = [p.detach().clone() for p in model.parameters()]

# hooks: forward with kwargs, full backward and backward pre-hooks
seen = []
hk = model.layers[0].register_forward_hook(
    lambda mod, a, kw, out: seen.append((type(mod).__name__, len(a), sorted(kw), tuple(out.shape))), with_kwargs=True)
hp = model.layers[1].feed_forward.register_forward_pre_hook(
    lambda mod, a, kw: ((a[0] * 1.0,), kw), with_kwargs=True)
grads = []
hb = model.layers[1].register_full_backward_hook(
    lambda mod, gi, go: grads.append(([None if g is None else tuple(g.shape) for g in gi],
                                      [None if g is None else round(g.abs().sum().item(), 3) for g in go])))
hpre = model.norm.register_full_backward_pre_hook(lambda mod, go: (go[0] * 1.0,))

data = torch.randint(0, args.vocab_size, (64,))
for step in range(tc.steps):
    ix = torch.randint(len(data) - 9, (2,))
    x = torch.stack([data[i:i + 8] for i in ix])
    y = torch.stack([data[i + 1:i + 9] for i in ix])
    logits = model(x)
    loss = F.cross_entropy(logits.view(-1, logits.size(-1)), y.view(-1))
    opt.zero_grad(set_to_none=True)
    loss.backward()
    norm = torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    opt.step()
    model.step_count += 1
    with torch.no_grad():
        params = [p.detach() for p in model.parameters()]
        torch._foreach_mul_(ema, tc.ema_decay)
        torch._foreach_add_(ema, params, alpha=1 - tc.ema_decay)
    print(step, f'{loss.item():.5f}', f'{norm.item():.5f}')
print(seen[0], len(seen))
print(grads[0])
for h in (hk, hp, hb, hpre):
    h.remove()
print(len(seen), torch._foreach_norm(ema[:2]), torch._foreach_sub(ema[:1], params[:1])[0].abs().max().item() > 0)
lerped = torch._foreach_lerp([e.clone() for e in ema[:2]], params[:2], 0.5)
print([round(t.sum().item(), 4) for t in lerped])
try:
    torch._foreach_add(ema[:2], params[:3])
except RuntimeError as e:
    print('RuntimeError:', e)

# checkpoint through BytesIO: tied weights stay one tensor, extra state comes back
buf = io.BytesIO()
torch.save({'model': model.state_dict(), 'args': asdict(args), 'ckpt': Checkpoint(4, loss.item()).step}, buf)
buf.seek(0)
ck = torch.load(buf, weights_only=True)
sd = ck['model']
print(sd['output.weight'].data_ptr() == sd['tok_embeddings.weight'].data_ptr(), sd['_extra_state'], ck['ckpt'])
a3 = ModelArgs(**{k: v for k, v in ck['args'].items() if k != 'hidden'}, scale_hidden=0.75)
m2 = Transformer(a3)
print(m2.load_state_dict(sd), m2.step_count)
m3 = Transformer(a3)
print(m3.load_state_dict(sd, assign=True), m3.output.weight is m3.tok_embeddings.weight,
      type(m3.norm.weight).__name__, m3.norm.weight.requires_grad)
tok = torch.tensor([[1, 2, 3, 4]])
with torch.no_grad():
    ref = model(tok)
    print((m2(tok) - ref).abs().max().item() < 1e-5, (m3(tok) - ref).abs().max().item() < 1e-5)
bad_sd = dict(sd)
bad_sd['norm.weight'] = torch.ones(3)
bad_sd['extra.bias'] = torch.ones(1)
del bad_sd['layers.0.ffn_norm.weight']
try:
    m2.load_state_dict(bad_sd)
except RuntimeError as e:
    print(str(e))
r = m2.load_state_dict({k: v for k, v in sd.items() if 'layers.1' not in k}, strict=False)
print(len(r.missing_keys), r.unexpected_keys)

# LoRA on the attention projections, then merged
class LoRA(nn.Module):
    def __init__(self, fan_in, fan_out, rank=2, alpha=4.0):
        super().__init__()
        self.lora_A = nn.Parameter(torch.randn(rank, fan_in) / rank)
        self.lora_B = nn.Parameter(torch.zeros(fan_out, rank))
        self.scale = alpha / rank
        self.enabled = True

    def forward(self, w):
        return w + (self.lora_B @ self.lora_A) * self.scale if self.enabled else w


for name, mod in model.named_modules():
    if isinstance(mod, nn.Linear) and name.split('.')[-1] in args.lora_targets:
        parametrize.register_parametrization(mod, 'weight', LoRA(mod.in_features, mod.out_features))
for n, p in model.named_parameters():
    p.requires_grad = 'lora' in n
print([n for n, p in model.named_parameters() if p.requires_grad][:2], model.layers[0].attention.wq)
lopt = torch.optim.SGD([p for p in model.parameters() if p.requires_grad], lr=0.5)
for step in range(2):
    loss = F.cross_entropy(model(x).view(-1, args.vocab_size), y.view(-1))
    lopt.zero_grad()
    loss.backward()
    lopt.step()
    print('lora', step, f'{loss.item():.5f}')
for layer in model.layers:
    for n in args.lora_targets:
        parametrize.remove_parametrizations(getattr(layer.attention, n), 'weight', leave_parametrized=True)
print(model.layers[0].attention.wq, len(model.state_dict()))
model.set_submodule('layers.1.feed_forward', nn.Identity())
print(type(model.layers[1].feed_forward).__name__, model(tok).shape)
try:
    model.set_submodule('layers.1.nothing', nn.Identity(), strict=True)
except AttributeError as e:
    print('AttributeError:', e)
cm = copy.deepcopy(model)
print(cm.output.weight is cm.tok_embeddings.weight, hasattr(cm.norm.weight, '_no_weight_decay'))
t = torch.ones(2)
t.tag = 'x'
print(copy.deepcopy(t).tag, t.__dict__)

# the optimizer stepped inside backward, one parameter at a time
head = nn.Sequential(nn.Linear(16, 8), nn.ReLU(), nn.Linear(8, 4))
popts = {p: torch.optim.SGD([p], lr=0.1) for p in head.parameters()}
stepped = []


def step_in_backward(p):
    stepped.append(tuple(p.shape))
    popts[p].step()
    popts[p].zero_grad()


handles = [p.register_post_accumulate_grad_hook(step_in_backward) for p in head.parameters()]
feats = torch.randn(5, 16)
for i in range(3):
    loss = head(feats).pow(2).mean()
    loss.backward()
    print('in-backward', i, round(loss.item(), 6), all(p.grad is None for p in head.parameters()))
print(stepped[:4], len(stepped))
handles[0].remove()
head(feats).sum().backward()
print(head[0].weight.grad is not None, head[0].bias.grad is None)
for bad in (torch.randn(2, requires_grad=True).mul(2), torch.randn(2)):
    try:
        bad.register_post_accumulate_grad_hook(lambda t: None)
    except RuntimeError as e:
        print('RuntimeError:', e)

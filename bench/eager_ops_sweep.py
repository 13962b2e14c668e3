# Eager kernels op by op, one thread: each op at about 1M elements, the median of 15 calls in
# process time (CPU time of this process, so a busy machine skews ratios less than wall time).
# One text for both systems:
#   build/release/jit/kiln run --jit=off bench/eager_ops_sweep.py [op ...] > kiln.txt
#   build/bench-venv/bin/python bench/eager_ops_sweep.py [op ...] > torch.txt
# Prints "<op> <ms>" per line; docs/benchmarks.md ("Eager kernels against PyTorch, one
# thread") has a run. Not a test: nothing here is checked.
import time, torch, sys
import torch.nn.functional as F
torch.set_num_threads(1)
torch.manual_seed(0)
N = 1 << 20
a = torch.randn(N); b = torch.randn(N); m2 = torch.randn(1024, 1024); m3 = torch.randn(64, 128, 128)
s = torch.randn(4096, 256); idx = torch.randint(0, 4096, (4096,)); ii = torch.randint(0, 256, (4096, 256))
img = torch.randn(8, 32, 64, 64); w = torch.randn(32, 32, 3, 3)
emb = torch.randn(10000, 128); tok = torch.randint(0, 10000, (64, 128))
bo = a > 0; ai = torch.randint(-100, 100, (N,))
cases = {
 "add": lambda: a + b, "mul_scalar": lambda: a * 2.5, "pow2": lambda: a.pow(2), "pow3.5": lambda: a.abs().pow(3.5),
 "exp": lambda: a.exp(), "log": lambda: a.abs().log(), "sigmoid": lambda: a.sigmoid(), "tanh": lambda: a.tanh(),
 "gelu": lambda: F.gelu(a), "gelu_tanh": lambda: F.gelu(a, approximate="tanh"), "silu": lambda: F.silu(a), "softplus": lambda: F.softplus(a),
 "erf": lambda: a.erf(), "sin": lambda: a.sin(), "cos": lambda: a.cos(), "sqrt": lambda: a.abs().sqrt(), "rsqrt": lambda: a.abs().rsqrt(),
 "clamp": lambda: a.clamp(-1, 1), "where": lambda: torch.where(bo, a, b), "masked_fill": lambda: a.masked_fill(bo, 0.0),
 "abs": lambda: a.abs(), "div": lambda: a / b, "floor_div_int": lambda: ai // 7, "remainder": lambda: a % 1.5,
 "int_add": lambda: ai + 3, "cast_f2i": lambda: a.to(torch.int64), "cast_i2f": lambda: ai.float(), "to_half": lambda: a.half(), "to_double": lambda: a.double(),
 "sum": lambda: a.sum(), "mean_dim0": lambda: m2.mean(0), "sum_dim1": lambda: m2.sum(1), "var_dim1": lambda: m2.var(1), "std": lambda: a.std(),
 "max_dim1": lambda: m2.max(1), "argmax": lambda: a.argmax(), "prod_dim1": lambda: m2.prod(1), "cumsum": lambda: m2.cumsum(1), "cumsum0": lambda: m2.cumsum(0),
 "cumprod": lambda: m2.cumprod(1), "norm": lambda: m2.norm(dim=1), "all": lambda: bo.all(), "any_dim": lambda: (m2 > 3).any(1), "count_nonzero": lambda: bo.sum(),
 "sort": lambda: s.sort(1), "argsort": lambda: s.argsort(1), "topk": lambda: s.topk(10, 1), "kthvalue": lambda: s.kthvalue(5, 1), "median_dim": lambda: s.median(1),
 "unique": lambda: ai.unique(), "bincount": lambda: (ai + 100).bincount(), "nonzero": lambda: bo.nonzero(), "masked_select": lambda: a[bo],
 "index_select": lambda: s.index_select(0, idx), "gather": lambda: s.gather(1, ii), "scatter_add": lambda: torch.zeros(4096, 256).scatter_add_(1, ii, s),
 "index_add": lambda: torch.zeros(4096, 256).index_add_(0, idx, s), "adv_index": lambda: s[idx], 
 "embedding": lambda: F.embedding(tok, emb), "one_hot": lambda: F.one_hot(idx, 4096),
 "transpose_copy": lambda: m2.t().contiguous(), "permute_copy": lambda: m3.permute(2, 0, 1).contiguous(), "cat": lambda: torch.cat([m2, m2], 1), "stack": lambda: torch.stack([a, b]),
 "flip": lambda: m2.flip(1), "roll": lambda: m2.roll(3, 1), "repeat": lambda: s.repeat(2, 2), "expand_copy": lambda: a[:1024].expand(1024, 1024).contiguous(), "tril": lambda: m2.tril(),
 "pad": lambda: F.pad(img, (1, 1, 1, 1)), "softmax": lambda: s.softmax(1), "log_softmax": lambda: s.log_softmax(1), "softmax0": lambda: s.softmax(0),
 "layer_norm": lambda: F.layer_norm(s, (256,)), "group_norm": lambda: F.group_norm(img, 8), "batch_norm": lambda: F.batch_norm(img, None, None, training=True),
 "conv2d": lambda: F.conv2d(img, w, padding=1), "max_pool2d": lambda: F.max_pool2d(img, 2), "avg_pool2d": lambda: F.avg_pool2d(img, 2), "adaptive_avg": lambda: F.adaptive_avg_pool2d(img, 1),
 "interp_bilinear": lambda: F.interpolate(img, scale_factor=2, mode="bilinear"), "interp_nearest": lambda: F.interpolate(img, scale_factor=2),
 "cross_entropy": lambda: F.cross_entropy(s, idx % 256), "mse": lambda: F.mse_loss(a, b), "bce_logits": lambda: F.binary_cross_entropy_with_logits(a, b.sigmoid()),
 "matmul": lambda: m2 @ m2, "bmm": lambda: torch.bmm(m3[:, :, :64], m3[:, :64, :]), "linear": lambda: F.linear(s, m2[:256, :256]),
 "randn": lambda: torch.randn(N), "rand": lambda: torch.rand(N), "randint": lambda: torch.randint(0, 10, (N,)), "randperm": lambda: torch.randperm(100000),
 "arange": lambda: torch.arange(N), "linspace": lambda: torch.linspace(0, 1, N), "zeros": lambda: torch.zeros(N), "full": lambda: torch.full((N,), 3.0),
 "eq_sum": lambda: (ai == 3).sum(), "isnan_any": lambda: a.isnan().any(), "allclose": lambda: torch.allclose(a, a),
 "outer": lambda: torch.outer(a[:1024], b[:1024]), "einsum": lambda: torch.einsum("bij,bjk->bik", m3[:, :, :64], m3[:, :64, :]),
 "dropout": lambda: F.dropout(a, 0.5), "tolist_small": lambda: a[:1000].tolist(), "item": lambda: a[5].item(),
}
only = sys.argv[1:] 
for name, f in cases.items():
    if only and name not in only: continue
    f(); f()
    reps = 15
    ts = []
    for _ in range(reps):
        t0 = time.process_time(); f(); ts.append(time.process_time() - t0)
    ts.sort()
    print(f"{name} {ts[reps // 2] * 1e3:.4f}")

# The autograd node PyTorch names for common expressions (printed as grad_fn=<...>):
# one-kernel losses, reflected operators (2 - x, 2 / x), advanced indexing, repeat, norms, addmm.
import torch
import torch.nn.functional as F
x = torch.randn(3, 4, requires_grad=True)
w = torch.randn(4, 2, requires_grad=True)
exprs = {
 'add1': x + 1, 'radd': 1 + x, 'sub': x - 1, 'rsub': 1 - x, 'mul': x * 2, 'div': x / 2, 'rdiv': 2 / x, 'neg': -x,
 'pow2': x ** 2, 'sqrt': x.abs().sqrt(), 'mm': x @ w, 'matmul3': x.unsqueeze(0) @ w, 'mean': x.mean(), 'mean0': x.mean(0),
 'sum': x.sum(), 'sum1': x.sum(1), 'max': x.max(), 'maxd': x.max(1)[0], 'amax': x.amax(1), 'relu': x.relu(), 'Frelu': F.relu(x),
 'sig': x.sigmoid(), 'tanh': x.tanh(), 'softmax': x.softmax(-1), 'logsm': F.log_softmax(x, 1), 'gelu': F.gelu(x), 'silu': F.silu(x),
 'view': x.view(12), 'reshape': x.reshape(2, 6), 'T': x.t(), 'transpose': x.transpose(0, 1), 'perm': x.permute(1, 0),
 'unsq': x.unsqueeze(1), 'sq': x.unsqueeze(1).squeeze(1), 'idx': x[0], 'slice': x[:, 1:], 'adv': x[[0, 2]], 'mask': x[x > 0],
 'cat': torch.cat([x, x]), 'stack': torch.stack([x, x]), 'exp': x.exp(), 'log': x.abs().log(), 'clamp': x.clamp(0, 1),
 'clampmin': x.clamp(min=0), 'where': torch.where(x > 0, x, 0.0), 'lin': F.linear(x, w.t()), 'linb': F.linear(x, w.t(), torch.ones(2)),
 'ce': F.cross_entropy(x, torch.tensor([0, 1, 2])), 'mse': F.mse_loss(x, torch.zeros(3, 4)), 'ln': F.layer_norm(x, (4,)),
 'drop': F.dropout(x, 0.0), 'expand': x[:1].expand(3, 4), 'contig': x.t().contiguous(), 'abs': x.abs(), 'norm': x.norm(),
 'var': x.var(), 'std': x.std(1), 'flatten': x.flatten(), 'chunk': x.chunk(2, 1)[0], 'split': x.split(2, 1)[1], 'gather': x.gather(1, torch.tensor([[0], [1], [2]])),
 'addmm': torch.addmm(torch.zeros(2), x, w), 'float': x.double(), 'clone': x.clone(), 'sumsq': (x * x).sum(), 'norm2': F.normalize(x, dim=1),
 'prelu': F.prelu(x, torch.tensor([0.25])), 'masked': x.masked_fill(x > 0, 0.0), 'repeat': x.repeat(2, 1), 'select': x.select(1, 2), 'sort': x.sort(1)[0], 'topk': x.topk(2)[0],
 'cumsum': x.cumsum(0), 'prod': x.prod(), 'minimum': torch.minimum(x, x * 2), 'logsumexp': x.logsumexp(1), 'bce': F.binary_cross_entropy_with_logits(x, torch.ones(3, 4)),
}
for k, v in exprs.items():
    print(k, type(v.grad_fn).__name__)
# 2 / x is x.reciprocal() * 2, and rounds as that
d = torch.tensor([3.0, 7.0, 0.1])
print((2 / d).tolist(), (1 - d).tolist())
# repeat copies even when every repeat is 1
z = torch.zeros(2, 2)
r = z.repeat(1, 1)
r[0, 0] = 5
print(z, r)
t = torch.rand(3, 4)
cls = torch.tensor([0, 3, 1])
p = torch.sigmoid(x)
for red in ['mean', 'sum', 'none']:
    L = {
        'bce': F.binary_cross_entropy(p, t, reduction=red), 'bcel': F.binary_cross_entropy_with_logits(x, t, reduction=red),
        'mse': F.mse_loss(x, t, reduction=red), 'l1': F.l1_loss(x, t, reduction=red), 'sl1': F.smooth_l1_loss(x, t, reduction=red),
        'huber': F.huber_loss(x, t, reduction=red), 'ce': F.cross_entropy(x, cls, reduction=red), 'nll': F.nll_loss(x, cls, reduction=red),
        'soft': F.soft_margin_loss(x, t.sign(), reduction=red), 'ces': F.cross_entropy(x, cls, label_smoothing=0.1, reduction=red),
    }
    for k, v in L.items():
        print(red, k, type(v.grad_fn).__name__)
print(F.cross_entropy(x, cls).grad_fn.name(), F.mse_loss(x, t).grad_fn.name())

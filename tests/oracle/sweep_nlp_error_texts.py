# Error texts a training script meets (wrong index dtype, out-of-range ids, shape
# mismatches in Linear and @, bad softmax dims, scheduler misuse), each caught;
# the softmax case runs in a loop so the JIT traces the failing call.
import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(26)
def tryit(f):
    try:
        f()
    except Exception as e:
        print(type(e).__name__, str(e).split('\n')[0])
emb = nn.Embedding(5, 3)
tryit(lambda: emb(torch.tensor([1.0, 2.0])))
tryit(lambda: emb(torch.tensor([5])))
tryit(lambda: F.cross_entropy(torch.randn(3, 4), torch.tensor([0.0, 1.0, 2.0])))
tryit(lambda: F.cross_entropy(torch.randn(3, 4), torch.tensor([0, 1, 4])))
tryit(lambda: F.cross_entropy(torch.randn(3, 4), torch.tensor([0, 1])))
tryit(lambda: nn.Linear(4, 2)(torch.randn(3, 5)))
tryit(lambda: nn.LayerNorm(4)(torch.randn(3, 5)))
tryit(lambda: torch.multinomial(torch.tensor([0.0, 0.0]), 1))
tryit(lambda: torch.multinomial(torch.tensor([0.5, 0.5]), 3))
tryit(lambda: torch.multinomial(torch.tensor([-0.5, 0.5]), 1))
tryit(lambda: torch.topk(torch.randn(3), 5))
tryit(lambda: torch.cat([torch.randn(2, 3), torch.randn(2, 4)]))
tryit(lambda: torch.randn(2, 3).view(4, 2))
tryit(lambda: torch.randn(2, 3) @ torch.randn(2, 3))
tryit(lambda: nn.MultiheadAttention(8, 2)(torch.randn(3, 2, 6), torch.randn(3, 2, 6), torch.randn(3, 2, 6)))
tryit(lambda: nn.TransformerEncoderLayer(8, 3))
for _ in range(4):
    tryit(lambda: F.softmax(torch.randn(2, 3), dim=2))
    tryit(lambda: torch.randn(2, 3).log_softmax(-3))
tryit(lambda: torch.randn(2, 3).masked_fill(torch.tensor([1, 0, 1]), 0.0))
tryit(lambda: torch.nn.utils.clip_grad_norm_([torch.nn.Parameter(torch.ones(2))], 1.0, error_if_nonfinite=True) )
p = torch.nn.Parameter(torch.ones(2)); p.grad = torch.tensor([float('nan'), 1.0])
tryit(lambda: torch.nn.utils.clip_grad_norm_([p], 1.0, error_if_nonfinite=True))
tryit(lambda: torch.optim.lr_scheduler.OneCycleLR(torch.optim.SGD([p], lr=0.1), max_lr=1.0))
tryit(lambda: torch.optim.lr_scheduler.StepLR(torch.optim.SGD([p], lr=0.1), step_size=2, last_epoch=3))
tryit(lambda: nn.Embedding(5, 3, padding_idx=7))
tryit(lambda: torch.tensor([[1, 2], [3]]))
tryit(lambda: torch.stack([torch.randn(2), torch.randn(3)]))
for f in [lambda: F.linear(torch.randn(5), torch.randn(2,4), torch.randn(2)), lambda: F.linear(torch.randn(3,2,5).transpose(0,1), torch.randn(2,4), torch.randn(2)), lambda: torch.randn(2,2,3)@torch.randn(2,2,3), lambda: torch.randn(2,2,3)@torch.randn(3,2,3)]:
  try: f()
  except Exception as e: print(type(e).__name__, e)

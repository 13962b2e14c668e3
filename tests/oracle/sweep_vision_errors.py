# Error texts of vision layers and helpers, in PyTorch's words and order:
# batch norm's channel checks, GroupNorm, pixel (un)shuffle, unfold, histc's
# range (raised at the call, so try/except catches it).
import torch
import torch.nn as nn
import torch.nn.functional as F


def attempt(fn):
    try:
        r = fn()
        print('ok', tuple(r.shape) if isinstance(r, torch.Tensor) else r)
    except Exception as e:
        print(type(e).__name__, e)


x = torch.randn(2, 4, 3)
attempt(lambda: nn.BatchNorm1d(3)(x))
attempt(lambda: F.batch_norm(x, torch.zeros(4), torch.ones(3)))
attempt(lambda: F.batch_norm(x, None, None, weight=torch.ones(3)))
attempt(lambda: F.batch_norm(x, None, None, torch.ones(4), torch.ones(3), training=True))
attempt(lambda: F.batch_norm(x, torch.zeros(4), torch.ones(4), torch.ones(3)))
attempt(lambda: F.batch_norm(x, torch.zeros(4), None))
attempt(lambda: nn.GroupNorm(3, 4))
attempt(lambda: nn.GroupNorm(2, 4)(torch.randn(2, 6, 3)))
attempt(lambda: F.group_norm(torch.randn(2, 6, 3), 4))
attempt(lambda: F.pixel_shuffle(torch.randn(1, 3, 2, 2), 2))
attempt(lambda: F.pixel_shuffle(torch.randn(4, 2), 2))
attempt(lambda: F.pixel_unshuffle(torch.randn(1, 1, 3, 4), 2))
attempt(lambda: F.pixel_unshuffle(torch.randn(1, 1, 4, 3), 2))
attempt(lambda: F.pixel_unshuffle(torch.randn(4, 2), 2))
attempt(lambda: F.pixel_unshuffle(torch.randn(2, 4, 6), 2))
attempt(lambda: F.unfold(torch.randn(1, 1, 3, 3), 4))
attempt(lambda: F.unfold(torch.randn(1, 1, 3, 3), (2, 5)))
attempt(lambda: F.unfold(torch.randn(1, 1, 3, 3), (2, 5), padding=(0, 1)))
attempt(lambda: F.unfold(torch.randn(1, 1, 3, 3), 2, stride=0))
attempt(lambda: F.unfold(torch.randn(1, 1, 3, 3), 2, dilation=3))
attempt(lambda: torch.histc(torch.tensor([1., 2.]), bins=2, min=3, max=1))
attempt(lambda: torch.histc(torch.tensor([1., 2.]), bins=2, min=0, max=float('inf')))
attempt(lambda: torch.histc(torch.tensor([1., 2.]), bins=3, min=2, max=2).tolist())
attempt(lambda: torch.histc(torch.tensor([1., 2.]), bins=2, min=0, max=4).tolist())

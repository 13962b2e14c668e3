# PackedSequence's tensor methods and unpack_sequence; ctc_loss on an unbatched
# input with 0-dim lengths; smooth_l1_loss with beta 0 (PyTorch's l1_loss).
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.utils.rnn import pack_sequence, unpack_sequence, pad_packed_sequence

torch.manual_seed(0)


def r(t, n=5):
    return [round(v, 4) for v in t.detach().flatten().tolist()[:n]]


seqs = [torch.randn(4, 2), torch.randn(2, 2), torch.randn(3, 2)]
pk = pack_sequence(seqs, enforce_sorted=False)
print(type(pk).__name__, pk.batch_sizes.tolist(), pk.sorted_indices.tolist())
pd = pk.double()
print(pd.data.dtype, pd.batch_sizes.dtype, pk.to(torch.float32) is pk, pk.cpu().data.dtype)
data, sizes, order, back = pk
print(r(data), order.tolist(), back.tolist())
print([list(u.shape) for u in unpack_sequence(pk)], r(unpack_sequence(pk)[2]))
gru = nn.GRU(2, 3, batch_first=True)
out, h = gru(pd.float())
padded, lens = pad_packed_sequence(out, batch_first=True)
print(type(out).__name__, lens.tolist(), r(padded[2, 2]), r(h))
print(pk._replace(data=pk.data * 2).data.sum().item() == 2 * pk.data.sum().item())

lp = torch.randn(10, 6).log_softmax(1).requires_grad_()
loss = F.ctc_loss(lp, torch.tensor([1, 2, 2]), torch.tensor(10), torch.tensor(3))
loss.backward()
print(round(loss.item(), 4), r(lp.grad[0]))
print(round(nn.CTCLoss(reduction="sum")(lp, torch.tensor([3, 1]), (8,), (2,)).item(), 4))

x = torch.randn(3, 4, requires_grad=True)
y = torch.randn(3, 4)
for red in ("mean", "sum", "none"):
    l = F.smooth_l1_loss(x, y, beta=0.0, reduction=red)
    print(red, r(l), l.grad_fn.name())
l = nn.SmoothL1Loss(beta=0.0)(x, y)
l.backward()
print(round(l.item(), 4), r(x.grad))

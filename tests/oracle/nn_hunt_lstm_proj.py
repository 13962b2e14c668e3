# LSTM with proj_size (stacked, bidirectional, packed, initial states) and the
# total-norm helpers of torch.nn.utils (get_total_norm, clip_grads_with_norm_).
import torch
import torch.nn as nn
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence, pad_sequence

torch.manual_seed(0)


def r(t, n=5):
    return [round(v, 4) for v in t.detach().flatten().tolist()[:n]]


lstm = nn.LSTM(4, 6, num_layers=2, bidirectional=True, batch_first=True, proj_size=3)
print(lstm)
print([(n, list(p.shape)) for n, p in lstm.named_parameters()][:5])
head = nn.Linear(12, 2)
opt = torch.optim.Adam(list(lstm.parameters()) + list(head.parameters()), lr=1e-2)
seqs = [torch.randn(n, 4) for n in (3, 5, 2)]
lens = torch.tensor([3, 5, 2])
padded = pad_sequence(seqs, batch_first=True)
tgt = torch.randn(3, 2)
for step in range(3):
    opt.zero_grad()
    packed = pack_padded_sequence(padded, lens, batch_first=True, enforce_sorted=False)
    out, (h, c) = lstm(packed)
    feat = torch.cat([h[-1], h[-2], h[0], h[1]], 1)
    loss = nn.functional.mse_loss(head(feat), tgt)
    loss.backward()
    total = nn.utils.get_total_norm([p.grad for p in lstm.parameters()])
    nn.utils.clip_grads_with_norm_(lstm.parameters(), 0.5, total)
    opt.step()
    print(step, round(loss.item(), 4), round(total.item(), 4))
print(list(h.shape), list(c.shape), r(lstm.weight_hr_l1_reverse))
padded_out, out_lens = pad_packed_sequence(out, batch_first=True)
print(list(padded_out.shape), out_lens.tolist(), r(padded_out[1, 4]))

# Unpacked, seq-first, with initial states of the projected size.
lstm1 = nn.LSTM(4, 5, proj_size=2)
x = torch.randn(6, 2, 4)
h0, c0 = torch.randn(1, 2, 2), torch.randn(1, 2, 5)
o, (h, c) = lstm1(x, (h0, c0))
print(o.grad_fn.name(), list(o.shape), r(o[-1]), r(c))
o.sum().backward()
print(r(lstm1.weight_hr_l0.grad), r(lstm1.weight_hh_l0.grad))
o, (h, c) = lstm1(x[:, 0])
print(list(o.shape), list(h.shape), list(c.shape), r(h))

for kw in [dict(proj_size=-1), dict(proj_size=5)]:
    try:
        nn.LSTM(4, 5, **kw)
    except ValueError as e:
        print("ValueError", e)
try:
    nn.GRU(4, 6, proj_size=2)
except ValueError as e:
    print("ValueError", e)
try:
    lstm1(x, (torch.zeros(1, 2, 5), torch.zeros(1, 2, 5)))
except RuntimeError as e:
    print("RuntimeError", e)
print(nn.utils.get_total_norm([]).item(), round(nn.utils.get_total_norm([torch.ones(3), torch.ones(2)], 1.0).item(), 4))
print(round(nn.utils.get_total_norm([torch.ones(3), -2 * torch.ones(2)], float("inf")).item(), 4))

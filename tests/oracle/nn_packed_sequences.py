# Packed variable-length batches through the recurrent layers: pack_padded_sequence
# (sorted and unsorted), pack_sequence, pad_packed_sequence, initial states in
# the caller's order, bidirectional and multi-layer stacks, gradients.
import torch
import torch.nn as nn
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence, pack_sequence, pad_sequence

torch.manual_seed(0)
seq = torch.randn(4, 5, 3)  # batch_first: 4 sequences of up to 5 steps
lens = torch.tensor([5, 3, 2, 1])
packed = pack_padded_sequence(seq, lens, batch_first=True)
print(packed.batch_sizes, packed.data.shape, packed.sorted_indices)
padded, out_lens = pad_packed_sequence(packed, batch_first=True)
print(torch.equal(padded[1, :3], seq[1, :3]), padded[3], out_lens)
print(pad_packed_sequence(packed, total_length=7)[0].shape)

gru = nn.GRU(3, 4, batch_first=True)
out, h = gru(packed)
unpacked, ul = pad_packed_sequence(out, batch_first=True)
print(unpacked[2].detach(), h[0].detach())
# The last output of each sequence is its final state.
print(torch.allclose(unpacked[torch.arange(4), lens - 1], h[0]))

# Unsorted lengths: the states come back in the caller's order.
lens2 = [2, 5, 1, 3]
p2 = pack_padded_sequence(seq, lens2, batch_first=True, enforce_sorted=False)
print(p2.sorted_indices, p2.unsorted_indices, p2.batch_sizes)
lstm = nn.LSTM(3, 2, num_layers=2, bidirectional=True, batch_first=True)
h0 = torch.randn(4, 4, 2)
c0 = torch.randn(4, 4, 2)
o2, (hn, cn) = lstm(p2, (h0, c0))
u2, l2 = pad_packed_sequence(o2, batch_first=True, padding_value=-1.0)
print(u2[2].detach(), l2)
print(hn[:, 0].detach(), cn[3].detach())
loss = u2.clamp(min=-0.5).sum() + hn.sum()
loss.backward()
print(lstm.weight_hh_l1_reverse.grad)

# pack_sequence of a list, an RNN in sequence-first layout.
seqs = [torch.randn(3, 2), torch.randn(4, 2), torch.randn(1, 2)]
ps = pack_sequence(seqs, enforce_sorted=False)
rnn = nn.RNN(2, 3)
o3, h3 = rnn(ps)
print(pad_packed_sequence(o3)[0][:, 1].detach(), h3.detach())
print(pad_sequence(seqs).shape)

try:
    pack_padded_sequence(seq, [3, 5, 1, 1], batch_first=True)
except RuntimeError as e:
    print("RuntimeError:", str(e)[:60])
try:
    pack_padded_sequence(seq, [3, 0, 1, 1], batch_first=True, enforce_sorted=False)
except RuntimeError as e:
    print("RuntimeError:", e)

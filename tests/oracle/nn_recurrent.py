# nn.RNN, nn.LSTM, nn.GRU and their cells: PyTorch's parameters and init,
# every input layout, bidirectional and stacked layers, gradients, and a small
# sequence model trained with Adam (the loop the JIT captures).
import torch
import torch.nn as nn
import torch.nn.functional as F


def show(*xs):
    # Values to 6 decimals, one line per call whatever the device (a tensor's
    # repr wraps differently with a device suffix).
    print(*[[round(v, 6) for v in x.detach().reshape(-1).tolist()] if isinstance(x, torch.Tensor) else x
            for x in xs])

torch.manual_seed(0)
lstm = nn.LSTM(3, 4, num_layers=2, batch_first=True)
print(lstm)
print([(n, tuple(p.shape)) for n, p in lstm.named_parameters()])
x = torch.randn(2, 5, 3)
out, (h, c) = lstm(x)
print(out.shape, h.shape, c.shape)
show(out[0, -1], h[-1], c[0])
h0 = torch.randn(2, 2, 4)
c0 = torch.randn(2, 2, 4)
out2, (h2, c2) = lstm(x, (h0, c0))
show(out2[1, 0], h2[0])
gru = nn.GRU(3, 4, bidirectional=True)
print(gru)
out, h = gru(x.transpose(0, 1))
print(out.shape, h.shape)
show(out[-1], h)
out.pow(2).mean().backward()
show(gru.weight_ih_l0.grad.norm(), gru.bias_hh_l0_reverse.grad[:3])
rnn = nn.RNN(3, 2, nonlinearity='relu', bias=False)
show(rnn, rnn(x[0])[0])
rnn2 = nn.RNN(3, 2, num_layers=3)
show(rnn2(x[0], torch.zeros(3, 2))[1])
cell = nn.LSTMCell(3, 4)
h, c = cell(x[:, 0])
show(cell, h, c)
show(cell(x[0, 0], (h[0], c[0]))[1])
gc = nn.GRUCell(3, 2)
show(gc, gc(x[0, 0]), gc(x[:, 1], torch.ones(2, 2)))
rc = nn.RNNCell(3, 2, nonlinearity='relu')
show(rc, rc(x[0]))
print(torch.stack([torch.ones(2, requires_grad=True), torch.zeros(2)]))


# A next-value predictor over sine waves.
class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.rnn = nn.GRU(1, 8, batch_first=True)
        self.head = nn.Linear(8, 1)

    def forward(self, seq):
        out, _ = self.rnn(seq)
        return self.head(out[:, -1])


torch.manual_seed(1)
t = torch.linspace(0, 6.28, 21)
seqs = torch.stack([torch.sin(t + phase) for phase in torch.rand(16).tolist()]).unsqueeze(-1)
inputs, targets = seqs[:, :-1], seqs[:, -1]
net = Net()
opt = torch.optim.Adam(net.parameters(), lr=0.01)
for step in range(5):
    opt.zero_grad()
    loss = F.mse_loss(net(inputs), targets)
    loss.backward()
    opt.step()
    print(step, round(loss.item(), 5))

# Variable-length sequences padded into one batch for a recurrent layer.
from torch.nn.utils.rnn import pad_sequence
seqs = [torch.ones(2, 3), torch.arange(12.0).reshape(4, 3), torch.zeros(1, 3)]
print(pad_sequence(seqs).shape)
print(pad_sequence(seqs, batch_first=True, padding_value=-1.0))

# nn.LSTM's and nn.GRU's gradients through every path the layer has: the output at each
# step, the final h and c, both directions, stacked layers, given initial
# states, no bias, float64, and a training loop. Kiln runs each direction of
# a layer as one op (core/ops/rnn.cpp) whose backward batches the weight
# gradient over the steps.
import torch
import torch.nn as nn
import torch.nn.functional as F


def r(t, n=6):
    return [round(v, 4) for v in t.flatten().tolist()[:n]]


torch.manual_seed(0)
for kw in [{}, {"bidirectional": True}, {"num_layers": 2, "batch_first": True}, {"bias": False},
           {"num_layers": 2, "bidirectional": True}]:
    lstm = nn.LSTM(3, 4, **kw)
    layers = lstm.num_layers * (2 if lstm.bidirectional else 1)
    x = torch.randn(2, 5, 3) if lstm.batch_first else torch.randn(5, 2, 3)
    x.requires_grad_()
    h0 = torch.randn(layers, 2, 4, requires_grad=True)
    c0 = torch.randn(layers, 2, 4, requires_grad=True)
    out, (h, c) = lstm(x, (h0, c0))
    loss = (out * torch.linspace(-1, 1, out.numel()).view(out.shape)).sum() + h.pow(2).sum() - 0.5 * c.sum()
    loss.backward()
    print(kw, r(out), r(h), r(c))
    print("  x", r(x.grad), "h0", r(h0.grad), "c0", r(c0.grad))
    for name, p in lstm.named_parameters():
        print("  ", name, r(p.grad, 4))

# Only the final state used; then only c.
lstm = nn.LSTM(2, 3)
x = torch.randn(4, 1, 2, requires_grad=True)
_, (h, c) = lstm(x)
h.sum().backward()
print(r(x.grad, 8), r(lstm.weight_hh_l0.grad, 4))
x.grad = None
lstm.zero_grad()
_, (h, c) = lstm(x)
c.sum().backward()
print(r(x.grad, 8), r(lstm.bias_hh_l0.grad, 4))

# Unbatched input and float64.
lstm = nn.LSTM(2, 3).double()
x = torch.randn(6, 2, dtype=torch.float64, requires_grad=True)
out, (h, c) = lstm(x)
out.sum().backward()
print(out.dtype, out.shape, h.shape, r(x.grad, 8), r(lstm.weight_ih_l0.grad, 4))

# A few training steps.
torch.manual_seed(1)
model = nn.LSTM(4, 8, batch_first=True)
head = nn.Linear(8, 3)
opt = torch.optim.Adam(list(model.parameters()) + list(head.parameters()), lr=0.01)
xs = torch.randn(6, 7, 4)
ys = torch.randint(0, 3, (6,))
for step in range(4):
    out, _ = model(xs)
    loss = F.cross_entropy(head(out[:, -1]), ys)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(step, round(loss.item(), 5))
with torch.no_grad():
    out, (h, c) = model(xs)
print(out.requires_grad, r(h), type(model(xs)[0].grad_fn).__name__)

# nn.GRU the same ways.
torch.manual_seed(2)
for kw in [{}, {"bidirectional": True}, {"num_layers": 2, "batch_first": True}, {"bias": False}]:
    gru = nn.GRU(3, 4, **kw)
    layers = gru.num_layers * (2 if gru.bidirectional else 1)
    x = torch.randn(2, 5, 3) if gru.batch_first else torch.randn(5, 2, 3)
    x.requires_grad_()
    h0 = torch.randn(layers, 2, 4, requires_grad=True)
    out, h = gru(x, h0)
    loss = (out * torch.linspace(-1, 1, out.numel()).view(out.shape)).sum() + h.pow(2).sum()
    loss.backward()
    print("GRU", kw, r(out), r(h), type(out.grad_fn).__name__)
    print("  x", r(x.grad), "h0", r(h0.grad))
    for name, p in gru.named_parameters():
        print("  ", name, r(p.grad, 4))
gru = nn.GRU(2, 3).double()
x = torch.randn(6, 2, dtype=torch.float64, requires_grad=True)
_, h = gru(x)
h.sum().backward()
print(h.dtype, r(x.grad, 8), r(gru.bias_hh_l0.grad, 4))

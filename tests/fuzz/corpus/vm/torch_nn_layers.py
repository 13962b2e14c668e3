import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)
lin = nn.Linear(3, 2)
print(lin, lin.weight.shape, lin(torch.ones(1, 3)).shape)
seq = nn.Sequential(nn.Linear(4, 3), nn.ReLU(), nn.Dropout(0.1), nn.Linear(3, 2), nn.LogSoftmax(dim=1))
seq.eval()
print(seq, seq(torch.ones(2, 4)).shape, len(list(seq.parameters())), [n for n, _ in seq.named_parameters()])
ln = nn.LayerNorm(3)
emb = nn.Embedding(5, 2)
print(ln(torch.arange(6.0).reshape(2, 3)), emb(torch.tensor([0, 4])).shape, nn.GELU()(torch.ones(1)), nn.SiLU()(torch.ones(1)))
print(nn.Tanh()(torch.zeros(1)), nn.Sigmoid()(torch.zeros(1)), nn.Softmax(0)(torch.ones(2)), nn.Flatten()(torch.ones(2, 2, 2)).shape)
print(nn.Identity()(5), nn.CrossEntropyLoss()(torch.ones(2, 3), torch.tensor([0, 2])), nn.MSELoss()(torch.ones(2), torch.zeros(2)))
print(F.cross_entropy(torch.ones(2, 3), torch.tensor([1, 1])), F.mse_loss(torch.ones(2), torch.ones(2)), F.embedding(torch.tensor([1]), torch.eye(3)))
print(F.layer_norm(torch.ones(2, 2), (2,)), F.dropout(torch.ones(4), 0.0), F.softmax(torch.ones(3), dim=0), F.relu(torch.tensor([-1.0])))
for f in [lambda: lin(torch.ones(1, 4)), lambda: emb(torch.tensor([5])), lambda: emb(torch.tensor([-1])), lambda: nn.Linear(-1, 2),
          lambda: nn.Dropout(2.0), lambda: F.cross_entropy(torch.ones(2, 3), torch.tensor([0, 3])), lambda: ln(torch.ones(2, 4)),
          lambda: F.cross_entropy(torch.ones(2, 3), torch.tensor([0.5, 1.0])), lambda: nn.Linear(2, 2)(5), lambda: seq[10],
          lambda: F.mse_loss(torch.ones(2), torch.ones(3)), lambda: nn.Embedding(0, 0)(torch.tensor([0]))]:
    try:
        print(f())
    except Exception as e:
        print(type(e).__name__)

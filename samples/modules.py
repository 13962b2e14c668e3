# nn.Module classes built, printed, inspected and evaluated: parameter names
# and counts, state_dict round trips, train/eval and dropout, Sequential and
# ModuleList. Run it with `kiln run samples/modules.py`.
import torch
import torch.nn as nn


class Residual(nn.Module):
    def __init__(self, dim, hidden, p_drop):
        super().__init__()
        self.fc1 = nn.Linear(dim, hidden)
        self.act = nn.GELU()
        self.fc2 = nn.Linear(hidden, dim)
        self.drop = nn.Dropout(p_drop)

    def forward(self, x):
        return x + self.drop(self.fc2(self.act(self.fc1(x))))


class Classifier(nn.Module):
    def __init__(self, vocab, dim, n_classes):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.body = nn.ModuleList([Residual(dim, 2 * dim, 0.25), Residual(dim, 3 * dim, 0.5)])
        self.head = nn.Sequential(nn.Linear(dim, dim), nn.Tanh(), nn.Linear(dim, n_classes))
        self.scale = nn.Parameter(torch.ones(1))

    def forward(self, tokens):
        x = self.embed(tokens).mean(dim=1)
        for block in self.body:
            x = block(x)
        return self.head(x) * self.scale


torch.manual_seed(0)
model = Classifier(vocab=20, dim=8, n_classes=3)
print(model)
print()
print("named parameters:")
for name, p in model.named_parameters():
    print(f"  {name:22s} {str(tuple(p.shape)):10s} {p.numel():4d}")
total = sum(p.numel() for p in model.parameters())
print("total parameters:", total)
print("children:", [name for name, _ in model.named_children()])
print("module kinds:", sorted(set(type(m).__name__ for m in model.modules())))
print("state_dict keys:", list(model.state_dict().keys()))

tokens = torch.tensor([[1, 5, 7, 2], [3, 3, 19, 0]])
model.eval()
with torch.no_grad():
    a = model(tokens)
    b = model(tokens)
print("eval is deterministic:", torch.equal(a, b))
print("eval logits:", [[round(v, 4) for v in row] for row in a.tolist()])
model.train()
torch.manual_seed(1)
with torch.no_grad():
    c = model(tokens)
print("train mode uses dropout:", not torch.equal(a, c), [m.training for m in model.body])
drop = nn.Dropout(0.5)
torch.manual_seed(2)
print("dropout in train:", drop(torch.ones(8)).tolist())
drop.eval()
print("dropout in eval: ", drop(torch.ones(8)).tolist())

# Copy the weights into a freshly initialized twin.
torch.manual_seed(123)
twin = Classifier(vocab=20, dim=8, n_classes=3)
twin.eval()
model.eval()
print("twin differs before loading:", not torch.equal(twin(tokens), model(tokens)))
print(twin.load_state_dict(model.state_dict()))
print("twin matches after loading:", torch.equal(twin(tokens), model(tokens)))
partial = model.state_dict()
del partial["scale"]
try:
    twin.load_state_dict(partial)
except RuntimeError as e:
    print(e)
print(twin.load_state_dict(partial, strict=False).missing_keys)

# Containers.
seq = nn.Sequential(nn.Linear(4, 3), nn.ReLU(), nn.Linear(3, 2))
print(seq)
print("len:", len(seq), "first:", seq[0], "last:", seq[-1])
stack = nn.ModuleList()
for width in [4, 6, 2]:
    stack.append(nn.Linear(width, width))
print("ModuleList sizes:", [m.in_features for m in stack], "len:", len(stack))
print("Sequential parameter names:", [n for n, _ in seq.named_parameters()])
x = torch.ones(2, 4)
print("sequential output shape:", seq(x).shape)
seq.requires_grad_(False)
print("frozen:", [p.requires_grad for p in seq.parameters()])

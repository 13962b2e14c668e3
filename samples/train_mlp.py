# A multi-layer perceptron learns to tell three Gaussian blobs apart.
# Run it with `kiln run samples/train_mlp.py`; under CPython with PyTorch it
# prints the same numbers.
import torch
import torch.nn as nn
import torch.nn.functional as F


class MLP(nn.Module):
    def __init__(self, n_in, n_hidden, n_out):
        super().__init__()
        self.fc1 = nn.Linear(n_in, n_hidden)
        self.fc2 = nn.Linear(n_hidden, n_hidden)
        self.out = nn.Linear(n_hidden, n_out)

    def forward(self, x):
        x = F.relu(self.fc1(x))
        x = F.relu(self.fc2(x))
        return self.out(x)


def make_data(n_per_class):
    # Three blobs around the corners of a triangle, with overlapping tails.
    centers = torch.tensor([[0.0, 2.0], [-1.8, -1.0], [1.8, -1.0]])
    xs = []
    ys = []
    for label in range(3):
        xs.append(torch.randn(n_per_class, 2) * 0.9 + centers[label])
        ys.append(torch.full((n_per_class,), label, dtype=torch.int64))
    return torch.cat(xs), torch.cat(ys)


torch.manual_seed(0)
x_train, y_train = make_data(100)
x_test, y_test = make_data(50)
model = MLP(2, 32, 3)
print(model)
print("parameters:", sum(p.numel() for p in model.parameters()))
opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)

for step in range(201):
    logits = model(x_train)
    loss = F.cross_entropy(logits, y_train)
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 25 == 0:
        acc = (logits.argmax(dim=1) == y_train).float().mean().item()
        print(f"step {step:3d}  loss {loss.item():.4f}  train accuracy {acc:.3f}")

model.eval()
with torch.no_grad():
    test_logits = model(x_test)
    test_loss = F.cross_entropy(test_logits, y_test).item()
    test_acc = (test_logits.argmax(dim=1) == y_test).float().mean().item()
print(f"test loss {test_loss:.4f}  test accuracy {test_acc:.3f}")
probs = F.softmax(model(torch.tensor([[0.0, 2.0], [-2.0, -1.0], [2.0, -1.0]])), dim=1)
print("class probabilities at the three centers:")
for row in probs.tolist():
    print("  " + "  ".join(f"{p:.3f}" for p in row))

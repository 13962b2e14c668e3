# Accuracy measured the usual way, (pred == y).float().mean().item(), in an
# evaluation function that becomes hot after its second call.
# expect graphs: 0
# expect breaks: none
import torch

torch.manual_seed(2)
model = torch.nn.Sequential(torch.nn.Linear(4, 16), torch.nn.ReLU(), torch.nn.Linear(16, 3))
x = torch.randn(48, 4)
y = torch.randint(0, 3, (48,))


def accuracy(model, x, y):
    with torch.no_grad():
        pred = model(x).argmax(dim=1)
        return (pred == y).float().mean().item()


for epoch in range(4):
    print(f"epoch {epoch}: accuracy {accuracy(model, x, y):.4f}")

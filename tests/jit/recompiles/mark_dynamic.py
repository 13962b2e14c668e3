# torch._dynamo.mark_dynamic on dim 0 before the first call: that dim is
# symbolic from the first graph on, so new batch sizes do not recompile.
#
# expect regions: 1
# expect in compiled:Net graphs: 1
# expect in compiled:Net runs: 3
# expect recompiles: 0
# expect eager_runs: 0
import torch
import torch.nn as nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 2)

    def forward(self, x):
        return torch.relu(self.fc(x))


torch.manual_seed(0)
model = torch.compile(Net())
a = torch.randn(8, 4)
torch._dynamo.mark_dynamic(a, 0)
print(model(a))
b = torch.randn(3, 4)
torch._dynamo.mark_dynamic(b, 0)
print(model(b))
c = torch.randn(5, 4)
torch._dynamo.mark_dynamic(c, 0)
print(model(c))

# The break happens two calls below the compiled function: the report's user
# stack names every frame.
# expect graphs: 0
# expect breaks: none
import torch


def log_stat(name, t):
    return name + "=" + format(t.max().item(), ".3f")


def layer(x, w):
    h = torch.relu(x @ w)
    return h, log_stat("max", h)


@torch.compile
def forward(x, w):
    h, stat = layer(x, w)
    return h.sum(), stat


s, stat = forward(torch.ones(2, 3), torch.full((3, 2), 0.5))
print(s, stat)

# The break happens two calls below the compiled function: the report's user
# stack names every frame.
# The .item() splits the compiled function's work in 2 graphs.
# expect graphs: 2
# expect breaks: item@11
# expect stack: item@11 log_stat <- layer <- forward <- <module>
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

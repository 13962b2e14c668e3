# A helper wrapped in torch.compiler.disable, called from a compiled
# function: what is pending runs first, then the helper runs eagerly.
# g * 3 runs before the helper (graph 1); the update after it is graph 2.
# The break is reported at the call in update().
# expect graphs: 2
# expect breaks: disabled@19
# expect stack: disabled@19 update <- <module>
import torch


@torch.compiler.disable
def clip_scale(g):
    return g.clamp(-1.0, 1.0)


@torch.compile
def update(w, g):
    g = g * 3
    g = clip_scale(g)
    return w - 0.1 * g


print(update(torch.ones(3), torch.tensor([0.1, -0.5, 0.9])))

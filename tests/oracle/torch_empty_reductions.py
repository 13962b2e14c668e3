# Reductions over an empty dim, in a function the JIT compiles: every row of
# the result is the reduction's identity (sum 0, prod 1, mean NaN, logsumexp
# -inf), never whatever the output's memory held.
import torch


def reduce_rows(x):
    return (x.sum(-1), x.mean(-1), x.prod(-1), torch.logsumexp(x, -1),
            torch.linalg.vector_norm(x, 2, -1), (x * 2 + 1).sum(-1), torch.pdist(x))


for step in range(4):
    outs = reduce_rows(torch.randn(3, 0))
    print(step, [t.tolist() for t in outs])
print(torch.randn(2, 0, 4).sum(1).tolist(), torch.randn(0, 3).sum(0).tolist())

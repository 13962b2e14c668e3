import torch
a = torch.tensor([[1.0, 5.0, 3.0], [4.0, 2.0, 6.0]])
print(a.sum(), a.sum(0), a.sum(dim=1, keepdim=True), a.mean(), a.mean(1), a.prod(), a.prod(1))
print(a.amax(), a.amin(0), a.max(), a.max(1), a.min(dim=0), a.max(1).values, a.min(0).indices)
print(a.argmax(), a.argmin(1), a.var(), a.std(0), a.var(1, unbiased=False), a.std(correction=0))
print(a.all(), a.any(1), (a > 2).all(0), torch.logsumexp(a, 1), torch.softmax(a, 1), torch.log_softmax(a, 0))
print(torch.maximum(a, a.flip(0)) if hasattr(a, 'flip') else 0, a.sum((0, 1)), a.mean(-1), torch.max(a, a))
e = torch.zeros(0, 3)
for f in [lambda: e.sum(), lambda: e.max(), lambda: e.mean(), lambda: e.argmax(), lambda: e.max(0), lambda: e.prod(),
          lambda: a.sum(5), lambda: a.sum(-3), lambda: a.max(dim=2), lambda: a.var(0, correction=5), lambda: a.std(),
          lambda: a.sum(dim=(0, 0)), lambda: torch.tensor(1.0).sum(0), lambda: torch.tensor(1.0).argmax(0),
          lambda: torch.tensor([1, 2]).mean(), lambda: a.sum(dtype=torch.int64), lambda: a.softmax(3)]:
    try:
        print(f())
    except Exception as ex:
        print(type(ex).__name__)

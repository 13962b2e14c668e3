# Mixup and friends: Beta, Gamma and Dirichlet samples follow PyTorch's
# gamma sampler draw for draw (Marsaglia-Tsang, boosted below 1), so a seeded
# script mixes the same images; their moments and log densities too.
import torch
from torch.distributions import Beta, Gamma, Dirichlet


def r(t):
    return [round(v, 4) for v in t.flatten().tolist()[:6]]


torch.manual_seed(0)
imgs = torch.rand(4, 3, 4, 4)
labels = torch.nn.functional.one_hot(torch.tensor([0, 2, 1, 2]), 3).float()
lam = Beta(0.4, 0.4).sample().item()
perm = torch.randperm(4)
mixed = lam * imgs + (1 - lam) * imgs[perm]
print(round(lam, 4), perm.tolist(), round(mixed.sum().item(), 3), r(lam * labels + (1 - lam) * labels[perm]))
print(r(Beta(torch.tensor([0.5, 2.0, 1.0]), torch.tensor([0.5, 3.0, 0.2])).sample((2,))))
print(r(Beta(2.0, 5.0).sample((4,))), r(Beta(torch.tensor(0.1), 0.1).sample()))
print(r(Gamma(torch.tensor([0.3, 1.0, 4.5]), torch.tensor([1.0, 2.0, 0.5])).sample()))
print(r(Gamma(2.0, 1.0).sample((5,))), r(torch._standard_gamma(torch.tensor([0.01, 1.0, 100.0]))))
print(r(Dirichlet(torch.tensor([1.0, 2.0, 3.0])).sample((2,))), r(torch._sample_dirichlet(torch.ones(2, 4))))
d64 = Dirichlet(torch.tensor([0.5, 0.5], dtype=torch.float64)).sample()
print(d64.dtype, round(d64.sum().item(), 6))
print(torch.rand(2).tolist())
b = Beta(torch.tensor([2.0, 0.5]), torch.tensor([3.0, 0.5]))
print(b, b.batch_shape, b.event_shape, r(b.mean), r(b.variance))
print(r(b.log_prob(torch.tensor([0.3, 0.9]))), r(b.entropy()))
g = Gamma(torch.tensor([2.0, 3.0]), torch.tensor([1.0, 0.5]))
print(r(g.mean), r(g.variance), r(g.mode), r(g.log_prob(torch.tensor([1.5, 4.0]))), r(g.entropy()))
dd = Dirichlet(torch.tensor([[1.0, 2.0, 3.0], [0.5, 0.5, 0.5]]))
print(dd.batch_shape, dd.event_shape, r(dd.mean), r(dd.variance))
print(r(dd.log_prob(torch.tensor([0.2, 0.3, 0.5]))), r(dd.entropy()))
gen = torch.Generator().manual_seed(3)
print(r(torch._standard_gamma(torch.full((3,), 0.7), generator=gen)))

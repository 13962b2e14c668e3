import torch
torch.manual_seed(0)
print(torch.rand(3), torch.randn(2, 2), torch.randint(0, 10, (4,)), torch.randint(5, (2,)))
x = torch.empty(4)
print(x.uniform_(-1, 1), x.normal_(0, 2), x.exponential_(), x.random_(0, 5))
print(torch.rand_like(x), torch.randn_like(x), torch.randint_like(x, 3))
p = torch.tensor([0.1, 0.0, 0.9])
print(torch.multinomial(p, 2), torch.bernoulli(torch.full((4,), 0.5)))
for bad in [lambda: torch.multinomial(torch.tensor([0.0, 0.0]), 1), lambda: torch.multinomial(p, 5),
            lambda: torch.randint(5, 0, (2,)), lambda: torch.bernoulli(torch.tensor([2.0])),
            lambda: torch.manual_seed(-1), lambda: torch.manual_seed(2**64), lambda: x.uniform_(1, 0),
            lambda: torch.multinomial(torch.tensor([-1.0, 2.0]), 1), lambda: torch.multinomial(p, 2, replacement=True)]:
    try:
        print(bad())
    except Exception as e:
        print(type(e).__name__)

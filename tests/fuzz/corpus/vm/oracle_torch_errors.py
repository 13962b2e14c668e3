# Errors from torch ops are ordinary exceptions a script can catch (only the type is printed:
# PyTorch's messages change between versions).
import torch
import torch.nn.functional as F
cases = [
    ("shape mismatch", lambda: torch.ones(2, 3) + torch.ones(3, 2)),
    ("mm inner dims", lambda: torch.ones(2, 3) @ torch.ones(2, 3)),
    ("view size", lambda: torch.ones(6).view(4, 2)),
    ("index out of range", lambda: torch.ones(3)[5]),
    ("too many indices", lambda: torch.ones(3)[0, 0]),
    ("bad dim", lambda: torch.ones(2, 2).sum(5)),
    ("cat shapes", lambda: torch.cat([torch.ones(2, 2), torch.ones(3, 3)])),
    ("cross_entropy target", lambda: F.cross_entropy(torch.ones(2, 3), torch.tensor([0, 5]))),
    ("embedding index", lambda: F.embedding(torch.tensor([7]), torch.ones(3, 2))),
    ("backward non-scalar", lambda: torch.ones(2, requires_grad=True).mul(2).backward()),
    ("no grad_fn", lambda: torch.ones(2).sum().backward()),
    ("squeeze dim", lambda: torch.ones(2).transpose(0, 3)),
    ("expand", lambda: torch.ones(2, 3).expand(4, 3)),
    ("reshape", lambda: torch.arange(5).reshape(2, -1)),
    ("linspace steps", lambda: torch.linspace(0, 1, -1)),
]
for name, fn in cases:
    try:
        fn()
        print(name, "no error")
    except Exception as err:
        print(name, type(err).__name__)
print("after errors", torch.ones(2).sum().item())
try:
    torch.zeros(2, 2).reshape(3)
except RuntimeError:
    print("caught as RuntimeError")
try:
    torch.not_an_op(1)
except AttributeError as err:
    print(type(err).__name__)
try:
    torch.ones(2).not_a_method()
except AttributeError as err:
    print(type(err).__name__)

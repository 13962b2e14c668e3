import torch
a = torch.zeros(3)
for f in [lambda: a.__setitem__(5, 1), lambda: a.__setitem__(slice(0, 2), torch.ones(3)), lambda: a.__setitem__(0, 'x'),
          lambda: a.__setitem__(torch.tensor([True]), 1), lambda: a.__setitem__(0, torch.ones(2))]:
    try:
        f()
    except Exception as e:
        print(type(e).__name__)
try:
    a[5] = 1
except IndexError as e:
    print("I
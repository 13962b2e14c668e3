# dict views (keys/values/items print, compare and combine as CPython's) and
# collections.OrderedDict (Module.state_dict() returns one, as in PyTorch).
import torch
import torch.nn as nn
from collections import OrderedDict
torch.manual_seed(0)
m = nn.Sequential(OrderedDict([("fc", nn.Linear(2, 2)), ("act", nn.ReLU())]))
sd = m.state_dict()
d0 = {"q": 1}
print(type(sd).__name__, isinstance(sd, dict), isinstance(sd, OrderedDict), isinstance({}, OrderedDict))
print(sd.keys())
print(sd)
print(m.load_state_dict(sd))
print(list(sd.items())[0][0], len(sd.values()), "fc.bias" in sd.keys(), ("q", 1) in d0.items())
d = {"a": 1, "b": 2, "c": 3}
k = d.keys()
d["d"] = 4
print(k, len(k), d.keys() & {"a", "z"}, sorted(d.keys() - {"a"}), d.keys() == {"a", "b", "c", "d"})
print(d.items() | {("x", 0)} == {("a", 1), ("b", 2), ("c", 3), ("d", 4), ("x", 0)})
print(type(d.values()).__name__, list(reversed(list(d.values()))))
o = OrderedDict(a=1, b=2, c=3)
o.move_to_end("a")
print(o, o.popitem(), o.popitem(last=False), o)
print(OrderedDict(), repr(o.copy()), dict(o))
print(d.keys() == d.keys(), d.values() == d.values(), bool({}.keys()))
for key, val in d.items():
    print(key, val, end="; ")
print()
try:
    hash(d.keys())
except TypeError as e:
    print("TypeError", e)

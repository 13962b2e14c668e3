# nn.CrossEntropyLoss and nn.MSELoss modules, with their gradients.
import torch
import torch.nn as nn
torch.manual_seed(0)
logits = torch.randn(5, 4, requires_grad=True)
target = torch.tensor([3, 0, 1, 1, 2])
ce = nn.CrossEntropyLoss()
print(ce)
loss = ce(logtor():
    items = []
    def add(v):
        items.append(v)
        return len(items)
    def get():
        return items
    return add, get
add, get = accumulator()
add(1)
add("two")
print(get())
def compose(f, g):
    return lambda x: f(g(x))
inc_then_double = compose(lambda x: x * 2, lambda x: x + 1)
print(inc_then_double(5))
def unbound():
    def inner():
        return y
    try:
        inner()
    except NameError as e:
        print("NameError:", e)
    y = 1
    return inner()
print(unbound())
try:
    print(undefined_name)
except NameError as e:
    print("NameError:", e)

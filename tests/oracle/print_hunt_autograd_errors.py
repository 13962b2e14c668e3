# Autograd errors as PyTorch words them: a second backward, saved tensors modified in place
import torch


def show(name, f):
    try:
        r = f()
        print(name, "->", r)
    except Exception as e:
        msg = str(e)
        print(name, type(e).__name__)
        for i in range(0, len(msg), 100):
            print("   ", msg[i:i + 100])


def twice():
    x = torch.ones(3, requires_grad=True)
    y = (x * x).sum()
    y.backward()
    y.backward()


def saved_output():
    x = torch.ones(3, requires_grad=True)
    y = x.exp()
    y.add_(1)
    y.sum().backward()


def saved_input():
    x = torch.ones(3, requires_grad=True)
    a = x * 2
    y = a * a
    a.add_(1)
    y.sum().backward()


def saved_input_zero():
    x = torch.ones(2, 2, requires_grad=True)
    a = x + 1
    y = a @ a
    a.zero_()
    y.sum().backward()


def saved_leaf():
    x = torch.ones(3, requires_grad=True)
    y = x * x
    with torch.no_grad():
        x.add_(1)
    y.sum().backward()


def saved_view():
    x = torch.ones(3, requires_grad=True)
    a = x * 2
    v = a[:2]
    y = v * v
    a.add_(1)
    y.sum().backward()


def saved_setitem():
    x = torch.ones(3, requires_grad=True)
    y = x.tanh()
    y[0] = 5
    y.sum().backward()


def retained():
    x = torch.ones(3, requires_grad=True)
    y = (x * x).sum()
    y.backward(retain_graph=True)
    y.backward()
    return x.grad.tolist()


show("twice", twice)
show("saved-output", saved_output)
show("saved-input", saved_input)
show("saved-input-zero", saved_input_zero)
show("saved-leaf", saved_leaf)
show("saved-view", saved_view)
show("saved-setitem", saved_setitem)
show("retained", retained)

# Tensors through str formatting: format specs, %-formatting, dunders called directly
import torch


def show(name, f):
    try:
        print(name, "->", f())
    except Exception as e:
        print(name, type(e).__name__, e)


t = torch.arange(6.).reshape(2, 3)
print(t.__repr__())
print(t[0].__str__(), t.__len__(), torch.tensor(2.5).__format__('.2f'))
print(f"{t[0, 0]:8.3f}|{t[0, 1]:<6}|{t[1, 1]:+.1e}")
print(f"{torch.tensor(3):03d}", f"{torch.tensor(7):x}", f"{torch.tensor(2.0):g}", f"{torch.tensor(0.25):%}")
show("fmt-bool", lambda: f"{torch.tensor(True):d}")
show("fmt-int-f", lambda: f"{torch.tensor(3):.2f}")
show("fmt-float-d", lambda: f"{torch.tensor(3.0):d}")
show("fmt-2d", lambda: f"{t:.2f}")
show("fmt-1elem", lambda: f"{torch.tensor([2.5]):.2f}")
show("fmt-grad", lambda: f"{torch.tensor(2.5, requires_grad=True):.2f}")
show("fmt-align", lambda: f"{torch.tensor(2.5):>10}|")
print("{:.3f} {:>8.2f}".format(torch.tensor(1.23456), torch.tensor(9.87)))
print("%.2f %d %s %r" % (torch.tensor(1.234), torch.tensor(5), torch.tensor(1), torch.tensor(2.)))
show("pct-f-2d", lambda: "%.2f" % t)
show("pct-d-1d", lambda: "%d" % torch.tensor([3, 4]))
show("pct-d-float", lambda: "%d" % torch.tensor(3.7))
show("pct-f-1elem", lambda: "%.1f" % torch.tensor([[2.25]]))
show("len-0d", lambda: torch.tensor(1.0).__len__())

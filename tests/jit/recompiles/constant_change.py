# Python ints and bools that pick the graph's shape are constants of the
# graph: changing one recompiles, and the report names that argument. Each
# function is compiled separately so each recompile has its own region. A
# view of an input (x.view(n, -1)) is not specialized on: the view is an
# input of the graph, so only its size changes and that dim turns dynamic.
#
# expect regions: 3
# expect recompiles: 3
# expect in compiled:reduce recompiles: 1 guard~"`sum`" guard~"argument `dim`" expected=0 actual=1
# expect in compiled:reduce_keep recompiles: 1 guard~"argument `keepdim`" expected=False actual=True
# expect in compiled:rows recompiles: 1 guard~"size of dim 0" expected=2 actual=3 made_dynamic=true
# expect in compiled:reduce every recompile: made_dynamic=false
# expect in compiled:reduce_keep every recompile: made_dynamic=false
# expect breaks: 0
import torch


def reduce(x, d):
    return x.sum(dim=d) * 2.0


def reduce_keep(x, keep):
    return x.sum(dim=1, keepdim=keep) + 1.0


def rows(x, n):
    return x.view(n, -1) * 3.0


x = torch.arange(12.0).reshape(3, 4)
c_reduce = torch.compile(reduce)
print(c_reduce(x, 0))
print(c_reduce(x, 1))
c_keep = torch.compile(reduce_keep)
print(c_keep(x, False))
print(c_keep(x, True))
c_rows = torch.compile(rows)
print(c_rows(torch.arange(6.0), 2))
print(c_rows(torch.arange(6.0), 3))

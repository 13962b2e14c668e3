# The same compiled function called with float32 and then float64 inputs: a
# recompile whose failed guard is the input's dtype. Going back to float32
# hits the first graph.
#
# expect regions: 1
# expect in compiled:poly graphs: 2
# expect recompiles: 1
# expect recompiles: 1 guard~"dtype" expected=torch.float32 actual=torch.float64 made_dynamic=false
# expect in compiled:poly every graph: runs=1
# expect breaks: 0
import torch


def poly(x):
    return x * x * 0.5 - x + 2.0


compiled = torch.compile(poly)
x = torch.tensor([0.1, 1.7, -3.3])
print(compiled(x))
print(compiled(x.double()))

# amax/amin/max over unit-stride rows run in lanes: a NaN anywhere still wins,
# ints, bools, half and double, rows longer than a lane group with a tail.
import torch
torch.manual_seed(0)
x = torch.randn(3, 40)
x[0, 17] = float("nan"); x[1, 39] = float("nan")
print(x.amax(1), x.amin(1), x.max(), torch.tensor([-0.0, 0.0]).amax(0))
print(torch.arange(50).view(2, 25).amax(1), torch.tensor([[True, False] * 9]).amax(1), x.half().amax(1))
print(x[2:].double().amin(1), torch.full((1, 33), float("-inf")).amax(1))

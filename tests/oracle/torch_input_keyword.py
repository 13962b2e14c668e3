# torch functions take their first tensor as input=, as PyTorch's Python bindings name it; a
# method still refuses it.
import torch
x = torch.arange(6.0).view(2, 3)
print(torch.sum(input=x), torch.sum(input=x, dim=1), torch.add(input=x, other=1.0), torch.softmax(input=x, dim=0)[0])
print(torch.clamp(input=x, min=1, max=4), torch.cat(tensors=[x, x]).shape, torch.matmul(input=x, other=x.t()))
print(torch.nn.functional.relu(input=x - 2), torch.mean(input=x), torch.where(condition=x > 2, input=x, other=-x))
try:
    x.sum(input=x)
except TypeError as e:
    print("TypeError")


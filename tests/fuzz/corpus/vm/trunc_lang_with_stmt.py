import torch
with torch.no_grad():
    x = torch.ones(2, requires_grad=True) * 2
print(x.requires_grad)
with torch.inference_mode():
    print(torch.is_inference
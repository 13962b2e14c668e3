import torch
a = torch.tensor([[1.0, -2.0], [3.0, 4.0]])
print(a.clone(), a.detach(), a.abs(), a.exp().log(), a.relu(), a.sigmoid(), a.t(), a.T, a.float(), a.long(), a.double())
print(a.numel(), a.dim(), a.size(), a.stride(), a.is_contiguous(), a.t().is_contiguous(), a.item() if a.numel() == 1 e
import torch
a = torch.tensor([[1.0, -2.0], [3.0, 4.0]])
print(a.clone(), a.detach(), a.abs(), a.exp().log(), a.relu(), a.sigmoid(), a.t(), a.T, a.float(), a.long(), a.double())
print(a.numel(), a.dim(), a.size(), a.stride(), a.is_contiguous(), a.t().is_contiguous(), a.item() if a.numel() == 1 else 0)
print(a.add(1), a.sub(a), a.mul(2), a.div(2), a.pow(2), a.neg(), a.sum(), a.fill_(2), a.zero_(), a.clamp_(0, 1))
print(a.device, a.requires_grad, a.grad, a.is_leaf, a.tolist(), len(a), list(a), [r.sum().item() for r in a])
b = a.clone()
b += 1
b -= 0.5
b *= 3
b /= 2
print(b, b.shape == (2, 2), b.shape == torch.Size([2, 2]), tuple(b.shape), b.shape[0], str(b.dtype))
print(a.cpu(), a.to('cpu'), a.contiguous(), a.view_as(b) if hasattr(a, 'view_as') else 0, torch.is_tensor(a))
for bad in ['nosuch', 'cuda', '__len__', 'numpy', 'data_ptr']:
    try:
        print(getattr(a, bad)())
    except Exception as e:
        print(type(e).__name__)

import torch
a = torch.arange(24).reshape(2, 3, 4)
print(a.view(6, 4).shape, a.reshape(-1).shape, a.transpose(0, 2).shape, a.permute(2, 0, 1).shape, a.t() if a.dim() == 2 else 0)
print(a.unsqueeze(0).shape, a.unsqueeze(-1).squeeze().shape, a.flatten(1).shape, a[:, :1].expand(2, 5, 4).shape)
print(a.transpose(0, 1).contiguous().is_contiguous(), a.narrow(2, 1, 2).shape, a.select(1, 0), a.as_strided((2, 2), (1, 2)))
print(a.split(1), a.split([1, 2], dim=1)[1].shape, a.chunk(3, 2)[2].shape, a.unbind(0)[1].shape)
print(torch.cat([a, a], 1).shape, torch.stack([a, a], 3).shape, torch.tril(torch.ones(3, 3)), torch.triu(torch.ones(3, 3), 1))
print(a.size(), a.size(1), a.stride(), a.numel(), a.dim(), a.ndim, a.shape[-1], a.T.shape if False else 0)

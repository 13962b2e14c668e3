# Sliding windows and bags: Tensor.unfold (a view; overlapping windows add their gradients),
# F.unfold/F.fold and nn.Unfold/nn.Fold (im2col/col2im with dilation, padding, stride), and
# nn.EmbeddingBag / F.embedding_bag (sum, mean, max; offsets, 2-D input, include_last_offset,
# padding_idx, per_sample_weights). EmbeddingBag's repr quotes the mode in 2.x (not in 1.13, which
# records this oracle): tests/lang/torch_test.cpp checks it.
import torch
import torch.nn as nn
import torch.nn.functional as F


def r(t):
    # Values as nested lists: a tensor's own repr would wrap differently with a device suffix.
    return [[round(v, 4) for v in row] for row in t.reshape(-1, t.shape[-1]).tolist()]


x = torch.arange(10.0)
w = x.unfold(0, 3, 2)
print("unfold", r(w), w.stride(), torch.arange(24.0).reshape(2, 3, 4).unfold(2, 2, 1).shape)
x[2] = 100.0
print("unfold is a view", w[0], w[1])
xr = torch.arange(8.0, requires_grad=True)
(xr.unfold(0, 3, 1) * torch.arange(18.0).reshape(6, 3)).sum().backward()
print("unfold grad", xr.grad)

img = torch.arange(2 * 3 * 5 * 6, dtype=torch.float32).reshape(2, 3, 5, 6) / 10
u = F.unfold(img, 2, stride=2)
print("F.unfold", u.shape, r(u[0, :, :3]))
u2 = F.unfold(img, (3, 2), dilation=(1, 2), padding=1, stride=(2, 1))
print("F.unfold dilated", u2.shape, [round(v, 4) for v in u2[1, 5, :7].tolist()])
print("F.fold", r(F.fold(u, (5, 6), 2, stride=2)[0, 0]))
print("fold of unfold", r(F.fold(F.unfold(img, 3, padding=1), (5, 6), 3, padding=1)[1, 2]))
ir = img.clone().requires_grad_(True)
(F.unfold(ir, 3, padding=1, stride=2) ** 2).sum().backward()
print("F.unfold grad", r(ir.grad[0, 0]))
print("modules", nn.Unfold(kernel_size=2)(img[0]).shape, r(nn.Fold((3, 3), 2)(torch.ones(1, 4, 4))))
print(nn.Unfold(kernel_size=(2, 3), stride=2), nn.Fold(output_size=(4, 4), kernel_size=2))

torch.manual_seed(0)
bag = nn.EmbeddingBag(10, 3, mode="mean")
print("bag mean", r(bag(torch.tensor([1, 2, 4, 5, 4, 3, 2, 9]), torch.tensor([0, 4])).detach()))
bag_sum = nn.EmbeddingBag(10, 3, mode="sum", padding_idx=2)
print("bag sum", r(bag_sum(torch.tensor([[1, 2, 4], [2, 2, 2]])).detach()))
bag_max = nn.EmbeddingBag(6, 2, mode="max", include_last_offset=True)
print("bag max", r(bag_max(torch.tensor([0, 1, 2, 3, 4]), torch.tensor([0, 2, 2, 5])).detach()))
weights = torch.arange(12.0).reshape(6, 2).requires_grad_()
out = F.embedding_bag(torch.tensor([0, 1, 1, 5]), weights, torch.tensor([0, 1]), mode="sum",
                    per_sample_weights=torch.tensor([1.0, 2.0, 0.5, 1.0]))
out.sum().backward()
print("bag grad", r(out.detach()), r(weights.grad))
opt = torch.optim.SGD(bag.parameters(), lr=0.5)
for step in range(3):
    loss = bag(torch.tensor([[1, 2], [3, 3]])).pow(2).sum()
    opt.zero_grad()
    loss.backward()
    opt.step()
    print("bag step", step, round(loss.item(), 5))

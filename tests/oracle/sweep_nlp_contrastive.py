# Sentence-embedding code: F.normalize with p=1, 2 and inf, cosine similarity,
# a symmetric InfoNCE loss, distances, ranking losses and masked pooling.
import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(25)
a = torch.randn(4, 6); b = torch.randn(4, 6)
print([round(v, 4) for v in F.normalize(a, dim=-1)[0].tolist()])
print([round(v, 4) for v in F.normalize(a, p=1, dim=0)[0].tolist()])
print([round(v, 4) for v in F.cosine_similarity(a, b).tolist()], [round(v, 4) for v in nn.CosineSimilarity(dim=0)(a, b).tolist()][:3])
sim = F.normalize(a, dim=-1) @ F.normalize(b, dim=-1).T / 0.07
labels = torch.arange(4)
print(round(F.cross_entropy(sim, labels).item(), 5), round(((F.cross_entropy(sim, labels) + F.cross_entropy(sim.T, labels)) / 2).item(), 5))
print([[round(v, 4) for v in r] for r in torch.cdist(a, b)[:2].tolist()])
print(round(F.triplet_margin_loss(a, b, b.flip(0)).item(), 5), round(F.cosine_embedding_loss(a, b, torch.tensor([1, -1, 1, -1])).item(), 5))
print(round(F.margin_ranking_loss(a[:, 0], b[:, 0], torch.ones(4)).item(), 5))
emb = torch.randn(2, 5, 6); m = torch.tensor([[1, 1, 1, 0, 0], [1, 1, 1, 1, 1]])
pooled = (emb * m.unsqueeze(-1)).sum(1) / m.sum(1, keepdim=True)
print([round(v, 4) for v in pooled[0].tolist()])
print([round(v, 4) for v in emb.masked_fill(m.unsqueeze(-1) == 0, -1e9).max(1).values[0].tolist()])
bag = nn.EmbeddingBag(10, 3, mode='mean')
print([round(v, 4) for v in bag(torch.tensor([1, 2, 4, 5, 4]), torch.tensor([0, 2])).flatten().tolist()])
print(F.pairwise_distance(a, b).shape, round(torch.nn.functional.pdist(a).sum().item(), 4))
print(torch.nn.functional.normalize(torch.zeros(2, 3)).tolist())
print([round(v, 4) for v in F.normalize(a, p=float('inf'), dim=1)[1].tolist()])
w = torch.randn(3, 4, requires_grad=True)
F.normalize(w, p=1, dim=1).pow(2).sum().backward()
print([round(v, 4) for v in w.grad[0].tolist()])

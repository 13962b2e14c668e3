# makemore part 1 in miniature: a bigram character model of names, first by
# counting (with sampling and the negative log likelihood), then as a
# one-layer neural net trained by gradient descent on one-hot inputs.
import torch
import torch.nn.functional as F

words = ['emma', 'olivia', 'ava', 'isabella', 'sophia', 'charlotte', 'mia', 'amelia',
         'harper', 'evelyn', 'abigail', 'emily', 'elizabeth', 'mila', 'ella', 'avery',
         'sofia', 'camila', 'aria', 'scarlett', 'victoria', 'madison', 'luna', 'grace',
         'chloe', 'penelope', 'layla', 'riley', 'zoey', 'nora', 'lily', 'eleanor',
         'hannah', 'quinn', 'xavier', 'jackson', 'felix', 'kwame', 'yusuf', 'wyatt']
print(words[:8])
print(len(words), min(len(w) for w in words), max(len(w) for w in words))

# bigram counts in a plain dict first
b = {}
for w in words:
    chs = ['<S>'] + list(w) + ['<E>']
    for ch1, ch2 in zip(chs, chs[1:]):
        bigram = (ch1, ch2)
        b[bigram] = b.get(bigram, 0) + 1
print(sorted(b.items(), key=lambda kv: -kv[1])[:6])

chars = sorted(list(set(''.join(words))))
stoi = {s: i + 1 for i, s in enumerate(chars)}
stoi['.'] = 0
itos = {i: s for s, i in stoi.items()}
print(len(itos), itos[1], itos[26], stoi['m'])

N = torch.zeros((27, 27), dtype=torch.int32)
for w in words:
    chs = ['.'] + list(w) + ['.']
    for ch1, ch2 in zip(chs, chs[1:]):
        ix1 = stoi[ch1]
        ix2 = stoi[ch2]
        N[ix1, ix2] += 1
print(N[0, :14].tolist())
print(N.sum().item(), N.max().item(), N.dtype, N[0, 1])

p = N[0].float()
p = p / p.sum()
print([round(v, 4) for v in p[:8].tolist()])

g = torch.Generator().manual_seed(2147483647)
p = torch.rand(3, generator=g)
p = p / p.sum()
print(p)
print(torch.multinomial(p, num_samples=20, replacement=True, generator=g).tolist())

g = torch.Generator().manual_seed(2147483647)
p = N[0].float()
p = p / p.sum()
ix = torch.multinomial(p, num_samples=1, replacement=True, generator=g).item()
print(ix, itos[ix])

# model smoothing, then normalize rows in place
P = (N + 1).float()
P /= P.sum(1, keepdims=True)
print(P.shape, round(P[0].sum().item(), 5), round(P[5, 13].item(), 5))

g = torch.Generator().manual_seed(2147483647)
for i in range(6):
    out = []
    ix = 0
    while True:
        p = P[ix]
        ix = torch.multinomial(p, num_samples=1, replacement=True, generator=g).item()
        out.append(itos[ix])
        if ix == 0:
            break
    print(''.join(out))

log_likelihood = 0.0
n = 0
for w in words:
    chs = ['.'] + list(w) + ['.']
    for ch1, ch2 in zip(chs, chs[1:]):
        ix1 = stoi[ch1]
        ix2 = stoi[ch2]
        prob = P[ix1, ix2]
        logprob = torch.log(prob)
        log_likelihood += logprob
        n += 1
        if n <= 3:
            print(f'{ch1}{ch2}: {prob:.4f} {logprob:.4f}')
print(f'{log_likelihood=}')
nll = -log_likelihood
print(f'{nll=}')
print(f'{nll/n}')

# the same model as a neural net
xs, ys = [], []
for w in words:
    chs = ['.'] + list(w) + ['.']
    for ch1, ch2 in zip(chs, chs[1:]):
        xs.append(stoi[ch1])
        ys.append(stoi[ch2])
xs = torch.tensor(xs)
ys = torch.tensor(ys)
num = xs.nelement()
print('number of examples: ', num)

g = torch.Generator().manual_seed(2147483647)
W = torch.randn((27, 27), generator=g, requires_grad=True)
xenc = F.one_hot(xs, num_classes=27).float()
print(xenc.shape, xenc.dtype)
for k in range(30):
    xenc = F.one_hot(xs, num_classes=27).float()
    logits = xenc @ W
    counts = logits.exp()
    probs = counts / counts.sum(1, keepdims=True)
    loss = -probs[torch.arange(num), ys].log().mean() + 0.01 * (W**2).mean()
    if k % 10 == 0:
        print(k, round(loss.item(), 4))
    W.grad = None
    loss.backward()
    W.data += -50 * W.grad
print(round(loss.item(), 4))

g = torch.Generator().manual_seed(2147483647)
for i in range(5):
    out = []
    ix = 0
    while True:
        xenc = F.one_hot(torch.tensor([ix]), num_classes=27).float()
        logits = xenc @ W
        counts = logits.exp()
        p = counts / counts.sum(1, keepdims=True)
        ix = torch.multinomial(p, num_samples=1, replacement=True, generator=g).item()
        out.append(itos[ix])
        if ix == 0:
            break
    print(''.join(out))

# NumPy's spellings that PyTorch's argument parser takes, and range indices
print(P.sum(axis=1, keepdims=True).shape, torch.sum(P, dim=1, keepdims=True).shape, P.mean(axis=0).shape)
print(P.std(dim=0, keepdims=True).shape, torch.max(P, axis=1).indices[:5].tolist(), torch.cat((xs, ys), axis=0).shape)
print(xs[range(3)].tolist(), xs[range(0)].shape, P[range(2), range(1, 3)].tolist() == [P[0, 1].item(), P[1, 2].item()])

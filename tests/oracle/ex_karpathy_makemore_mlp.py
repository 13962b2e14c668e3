# makemore part 2 in miniature: the MLP character model (Bengio et al. 2003)
# with an embedding table C, a tanh hidden layer, cross entropy, minibatch
# SGD with a manual update, a learning-rate sweep and sampling.
import random
import torch
import torch.nn.functional as F

words = ['emma', 'olivia', 'ava', 'isabella', 'sophia', 'charlotte', 'mia', 'amelia',
         'harper', 'evelyn', 'abigail', 'emily', 'elizabeth', 'mila', 'ella', 'avery',
         'sofia', 'camila', 'aria', 'scarlett', 'victoria', 'madison', 'luna', 'grace',
         'chloe', 'penelope', 'layla', 'riley', 'zoey', 'nora', 'lily', 'eleanor',
         'hannah', 'quinn', 'xavier', 'jackson', 'felix', 'kwame', 'yusuf', 'wyatt']
chars = sorted(list(set(''.join(words))))
stoi = {s: i + 1 for i, s in enumerate(chars)}
stoi['.'] = 0
itos = {i: s for s, i in stoi.items()}
vocab_size = len(itos)

block_size = 3  # context length: how many characters predict the next one


def build_dataset(words):
    X, Y = [], []
    for w in words:
        context = [0] * block_size
        for ch in w + '.':
            ix = stoi[ch]
            X.append(context)
            Y.append(ix)
            context = context[1:] + [ix]
    X = torch.tensor(X)
    Y = torch.tensor(Y)
    print(X.shape, Y.shape)
    return X, Y


# the first names, shown as contexts
for w in words[:2]:
    context = [0] * block_size
    for ch in w + '.':
        ix = stoi[ch]
        print(''.join(itos[i] for i in context), '--->', itos[ix])
        context = context[1:] + [ix]

random.seed(42)
random.shuffle(words)
print(words[:5])
n1 = int(0.8 * len(words))
n2 = int(0.9 * len(words))
Xtr, Ytr = build_dataset(words[:n1])
Xdev, Ydev = build_dataset(words[n1:n2])
Xte, Yte = build_dataset(words[n2:])
print(Xtr.dtype, Xtr[:3].tolist())

# embedding lookups agree with one-hot products
g = torch.Generator().manual_seed(2147483647)
C = torch.randn((27, 2), generator=g)
print(torch.allclose(F.one_hot(torch.tensor(5), num_classes=27).float() @ C, C[5]))
emb = C[Xtr]
print(emb.shape)
print(torch.cat([emb[:, 0, :], emb[:, 1, :], emb[:, 2, :]], 1).shape)
print(torch.cat(torch.unbind(emb, 1), 1).shape)
a = torch.arange(18)
print(a.view(3, 3, 2).shape, a.view(3, 3, 2).stride())
print(emb.view(-1, 6).shape, torch.equal(emb.view(-1, 6), torch.cat(torch.unbind(emb, 1), 1)))

g = torch.Generator().manual_seed(2147483647)
C = torch.randn((27, 10), generator=g)
W1 = torch.randn((30, 200), generator=g) * 0.2
b1 = torch.randn(200, generator=g) * 0.01
W2 = torch.randn((200, 27), generator=g) * 0.01
b2 = torch.randn(27, generator=g) * 0
parameters = [C, W1, b1, W2, b2]
print(sum(p.nelement() for p in parameters))
for p in parameters:
    p.requires_grad = True

# the loss by hand equals F.cross_entropy
emb = C[Xtr]
h = torch.tanh(emb.view(-1, 30) @ W1 + b1)
logits = h @ W2 + b2
counts = logits.exp()
prob = counts / counts.sum(1, keepdims=True)
manual = -prob[torch.arange(Xtr.shape[0]), Ytr].log().mean()
print(round(manual.item(), 3), round(F.cross_entropy(logits, Ytr).item(), 3))

lre = torch.linspace(-3, 0, 1000)
lrs = 10**lre
print(round(lrs[0].item(), 6), round(lrs[500].item(), 5), round(lrs[-1].item(), 4))

torch.manual_seed(1337)
lri, lossi, stepi = [], [], []
for i in range(300):
    ix = torch.randint(0, Xtr.shape[0], (32,))
    emb = C[Xtr[ix]]
    h = torch.tanh(emb.view(-1, 30) @ W1 + b1)
    logits = h @ W2 + b2
    loss = F.cross_entropy(logits, Ytr[ix])
    for p in parameters:
        p.grad = None
    loss.backward()
    lr = 0.1 if i < 200 else 0.01
    for p in parameters:
        p.data += -lr * p.grad
    stepi.append(i)
    lossi.append(loss.log10().item())
    if i % 50 == 0:
        print(f'{i:7d}/{300:7d}: {loss.item():.4f}')
print(round(sum(lossi[-50:]) / 50, 3))


@torch.no_grad()
def split_loss(X, Y):
    emb = C[X]
    h = torch.tanh(emb.view(-1, 30) @ W1 + b1)
    logits = h @ W2 + b2
    return F.cross_entropy(logits, Y)


print('train', round(split_loss(Xtr, Ytr).item(), 3))
print('val', round(split_loss(Xdev, Ydev).item(), 3))

g = torch.Generator().manual_seed(2147483647 + 10)
for _ in range(6):
    out = []
    context = [0] * block_size
    while True:
        emb = C[torch.tensor([context])]
        h = torch.tanh(emb.view(1, -1) @ W1 + b1)
        logits = h @ W2 + b2
        probs = F.softmax(logits, dim=1)
        ix = torch.multinomial(probs, num_samples=1, generator=g).item()
        context = context[1:] + [ix]
        out.append(ix)
        if ix == 0:
            break
    print(''.join(itos[i] for i in out))

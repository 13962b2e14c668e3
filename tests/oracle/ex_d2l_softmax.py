# Softmax regression from scratch on synthetic "images", d2l style.
import torch
from torch import nn

torch.manual_seed(1)

num_inputs = 16
num_outputs = 4
n = 120
# Synthetic 4x4 images: each class has its own mean pattern.
centers = torch.randn(num_outputs, 1, 4, 4)
train_y = torch.randint(0, num_outputs, (n,))
train_X = centers[train_y] + 2.0 * torch.randn(n, 1, 4, 4)
test_y = torch.randint(0, num_outputs, (40,))
test_X = centers[test_y] + 2.0 * torch.randn(40, 1, 4, 4)


def data_iter(X, y, batch_size):
    for i in range(0, len(X), batch_size):
        yield X[i:i + batch_size], y[i:i + batch_size]


W = torch.normal(0, 0.01, size=(num_inputs, num_outputs), requires_grad=True)
b = torch.zeros(num_outputs, requires_grad=True)

X = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
print(X.sum(0, keepdim=True), X.sum(1, keepdim=True))


def softmax(X):
    X_exp = torch.exp(X)
    partition = X_exp.sum(1, keepdim=True)
    return X_exp / partition  # The broadcasting mechanism is applied here


X = torch.normal(0, 1, (2, 5))
X_prob = softmax(X)
print([[round(v, 4) for v in r] for r in X_prob.tolist()])
print([round(v, 4) for v in X_prob.sum(1).tolist()])


def net(X):
    return softmax(torch.matmul(X.reshape((-1, W.shape[0])), W) + b)


y = torch.tensor([0, 2])
y_hat = torch.tensor([[0.1, 0.3, 0.6], [0.3, 0.2, 0.5]])
print(y_hat[[0, 1], y])


def cross_entropy(y_hat, y):
    return - torch.log(y_hat[range(len(y_hat)), y])


print(cross_entropy(y_hat, y))


def accuracy(y_hat, y):
    """Compute the number of correct predictions."""
    if len(y_hat.shape) > 1 and y_hat.shape[1] > 1:
        y_hat = y_hat.argmax(axis=1)
    cmp = y_hat.type(y.dtype) == y
    return float(cmp.type(y.dtype).sum())


print(accuracy(y_hat, y) / len(y))


class Accumulator:
    """For accumulating sums over `n` variables."""

    def __init__(self, n):
        self.data = [0.0] * n

    def add(self, *args):
        self.data = [a + float(b) for a, b in zip(self.data, args)]

    def reset(self):
        self.data = [0.0] * len(self.data)

    def __getitem__(self, idx):
        return self.data[idx]


def evaluate_accuracy(net, data_iter):
    """Compute the accuracy for a model on a dataset."""
    if isinstance(net, torch.nn.Module):
        net.eval()  # Set the model to evaluation mode
    metric = Accumulator(2)  # No. of correct predictions, no. of predictions
    with torch.no_grad():
        for X, y in data_iter:
            metric.add(accuracy(net(X), y), y.numel())
    return metric[0] / metric[1]


print(round(evaluate_accuracy(net, data_iter(test_X, test_y, 20)), 4))


def train_epoch_ch3(net, train_iter, loss, updater):
    if isinstance(net, torch.nn.Module):
        net.train()
    metric = Accumulator(3)
    for X, y in train_iter:
        y_hat = net(X)
        l = loss(y_hat, y)
        if isinstance(updater, torch.optim.Optimizer):
            updater.zero_grad()
            l.mean().backward()
            updater.step()
        else:
            l.sum().backward()
            updater(X.shape[0])
        metric.add(float(l.sum()), accuracy(y_hat, y), y.numel())
    return metric[0] / metric[2], metric[1] / metric[2]


def sgd(params, lr, batch_size):
    with torch.no_grad():
        for param in params:
            param -= lr * param.grad / batch_size
            param.grad.zero_()


lr = 0.1


def updater(batch_size):
    return sgd([W, b], lr, batch_size)


def train_ch3(net, loss, num_epochs, updater):
    for epoch in range(num_epochs):
        train_metrics = train_epoch_ch3(net, data_iter(train_X, train_y, 20),
                                        loss, updater)
        test_acc = evaluate_accuracy(net, data_iter(test_X, test_y, 20))
        train_loss, train_acc = train_metrics
        print(f'epoch {epoch + 1}: loss {train_loss:.4f}, '
              f'train acc {train_acc:.3f}, test acc {test_acc:.3f}')
    assert train_loss < 5, train_loss
    return train_metrics


train_ch3(net, cross_entropy, 4, updater)


def predict_ch3(net, X, y, n=6):
    trues = [int(v) for v in y]
    preds = [int(v) for v in net(X).argmax(axis=1)]
    titles = [str(true) + '\n' + str(pred) for true, pred in zip(trues, preds)]
    print(titles[0:n])


predict_ch3(net, test_X, test_y)

# Concise implementation
net = nn.Sequential(nn.Flatten(), nn.Linear(16, 4))


def init_weights(m):
    if type(m) == nn.Linear:
        nn.init.normal_(m.weight, std=0.01)


net.apply(init_weights)
loss = nn.CrossEntropyLoss(reduction='none')
trainer = torch.optim.SGD(net.parameters(), lr=0.1)
train_ch3(net, loss, 3, trainer)
print(net.training, net[1].weight.grad.shape)

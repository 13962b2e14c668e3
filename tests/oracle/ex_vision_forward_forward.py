# pytorch/examples mnist_forward_forward, shrunk: label overlay on the input,
# layer-local goodness losses (softplus of thresholded mean squares), per-layer
# Adam optimizers and prediction by the label with the highest total goodness.
import argparse
import time
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.optim import Adam


def overlay_y_on_x(x, y):
    """Replace the first 10 pixels of data [x] with one-hot-encoded label [y]
    """
    x_ = x.clone()
    x_[:, :10] *= 0.0
    x_[range(x.shape[0]), y] = x.max()
    return x_


class Net(torch.nn.Module):
    def __init__(self, dims):

        super().__init__()
        self.layers = []
        for d in range(len(dims) - 1):
            self.layers += [Layer(dims[d], dims[d + 1])]

    def predict(self, x):
        goodness_per_label = []
        for label in range(10):
            h = overlay_y_on_x(x, label)
            goodness = []
            for layer in self.layers:
                h = layer(h)
                goodness += [h.pow(2).mean(1)]
            goodness_per_label += [sum(goodness).unsqueeze(1)]
        goodness_per_label = torch.cat(goodness_per_label, 1)
        return goodness_per_label.argmax(1)

    def train(self, x_pos, x_neg):
        h_pos, h_neg = x_pos, x_neg
        for i, layer in enumerate(self.layers):
            print("training layer: ", i)
            h_pos, h_neg = layer.train(h_pos, h_neg)


class Layer(nn.Linear):
    def __init__(self, in_features, out_features,
                 bias=True, device=None, dtype=None):
        super().__init__(in_features, out_features, bias, device, dtype)
        self.relu = torch.nn.ReLU()
        self.opt = Adam(self.parameters(), lr=args.lr)
        self.threshold = args.threshold
        self.num_epochs = args.epochs

    def forward(self, x):
        x_direction = x / (x.norm(2, 1, keepdim=True) + 1e-4)
        return self.relu(
            torch.mm(x_direction, self.weight.T) +
            self.bias.unsqueeze(0))

    def train(self, x_pos, x_neg):
        for i in range(self.num_epochs):
            g_pos = self.forward(x_pos).pow(2).mean(1)
            g_neg = self.forward(x_neg).pow(2).mean(1)
            # The following loss pushes pos (neg) samples to
            # values larger (smaller) than the self.threshold.
            loss = torch.log(1 + torch.exp(torch.cat([
                -g_pos + self.threshold,
                g_neg - self.threshold]))).mean()
            self.opt.zero_grad()
            # this backward just compute the derivative and hence
            # is not considered backpropagation.
            loss.backward()
            self.opt.step()
            if i % args.log_interval == 0:
                print("Loss: ", round(loss.item(), 4))
        return self.forward(x_pos).detach(), self.forward(x_neg).detach()


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=20, metavar="N",
                        help="number of epochs to train (default: 20)")
    parser.add_argument("--lr", type=float, default=0.03, metavar="LR",
                        help="learning rate (default: 0.03)")
    parser.add_argument("--no_accel", action="store_true", default=False,
                        help="disables accelerator")
    parser.add_argument("--seed", type=int, default=1, metavar="S",
                        help="random seed (default: 1)")
    parser.add_argument("--train_size", type=int, default=64, help="size of training set")
    parser.add_argument("--threshold", type=float, default=2, help="threshold for training")
    parser.add_argument("--test_size", type=int, default=32, help="size of test set")
    parser.add_argument("--log-interval", type=int, default=5, metavar="N",
                        help="how many batches to wait before logging training status")
    args = parser.parse_args([])
    torch.manual_seed(args.seed)
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")

    y = torch.randint(0, 10, (args.train_size,))
    x = torch.rand(args.train_size, 40) + F.one_hot(y, 40).float() * 0.5
    y_te = torch.randint(0, 10, (args.test_size,))
    x_te = torch.rand(args.test_size, 40) + F.one_hot(y_te, 40).float() * 0.5
    x, y = x.to(device), y.to(device)

    net = Net([40, 24, 24])
    for layer in net.layers:
        layer.to(device)
    x_pos = overlay_y_on_x(x, y)
    rnd = torch.randperm(x.size(0))
    x_neg = overlay_y_on_x(x, y[rnd])
    print('overlay', x_pos[0, :10].nonzero().flatten().tolist(), y[0].item(), round(x.max().item(), 4))

    net.train(x_pos, x_neg)

    print("train error:", round(1.0 - net.predict(x).eq(y).float().mean().item(), 4))

    x_te, y_te = x_te.to(device), y_te.to(device)

    print("test error:", round(1.0 - net.predict(x_te).eq(y_te).float().mean().item(), 4))

    # The same direction computed with F.normalize agrees with the explicit norm.
    d1 = F.normalize(x_pos, p=2, dim=1)
    d2 = x_pos / x_pos.norm(2, 1, keepdim=True)
    print('normalize', torch.allclose(d1, d2, atol=1e-6), round(d1.norm(dim=1).mean().item(), 4))
    print('layers', [tuple(l.weight.shape) for l in net.layers], isinstance(net.layers[0], nn.Linear))

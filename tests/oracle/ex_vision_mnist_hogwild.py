# pytorch/examples mnist_hogwild, shrunk: the model's parameters are shared
# with share_memory() and trained by torch.multiprocessing workers (one here,
# so the numbers repeat), then the parent tests the trained model.
import argparse
import torch
import torch.multiprocessing as mp
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim
from torch.utils.data import TensorDataset

parser = argparse.ArgumentParser(description='PyTorch MNIST Hogwild Example')
parser.add_argument('--batch-size', type=int, default=16, metavar='N')
parser.add_argument('--test-batch-size', type=int, default=32, metavar='N')
parser.add_argument('--epochs', type=int, default=2, metavar='N')
parser.add_argument('--lr', type=float, default=0.01, metavar='LR')
parser.add_argument('--momentum', type=float, default=0.5, metavar='M')
parser.add_argument('--seed', type=int, default=1, metavar='S')
parser.add_argument('--log-interval', type=int, default=2, metavar='N')
parser.add_argument('--num-processes', type=int, default=1, metavar='N')
parser.add_argument('--accel', action='store_true', default=False)
parser.add_argument('--dry-run', action='store_true', default=False)


class Net(nn.Module):
    def __init__(self):
        super(Net, self).__init__()
        self.conv1 = nn.Conv2d(1, 4, kernel_size=3)
        self.conv2 = nn.Conv2d(4, 8, kernel_size=3)
        self.conv2_drop = nn.Dropout2d()
        self.fc1 = nn.Linear(8 * 2 * 2, 16)
        self.fc2 = nn.Linear(16, 10)

    def forward(self, x):
        x = F.relu(F.max_pool2d(self.conv1(x), 2))
        x = F.relu(F.max_pool2d(self.conv2_drop(self.conv2(x)), 2))
        x = x.view(-1, 8 * 2 * 2)
        x = F.relu(self.fc1(x))
        x = F.dropout(x, training=self.training)
        x = self.fc2(x)
        return F.log_softmax(x, dim=1)


def train(rank, args, model, device, dataset, dataloader_kwargs):
    torch.manual_seed(args.seed + rank)

    train_loader = torch.utils.data.DataLoader(dataset, **dataloader_kwargs)

    optimizer = optim.SGD(model.parameters(), lr=args.lr, momentum=args.momentum)
    for epoch in range(1, args.epochs + 1):
        train_epoch(epoch, args, model, device, train_loader, optimizer)


def test(args, model, device, dataset, dataloader_kwargs):
    torch.manual_seed(args.seed)

    test_loader = torch.utils.data.DataLoader(dataset, **dataloader_kwargs)

    test_epoch(model, device, test_loader)


def train_epoch(epoch, args, model, device, data_loader, optimizer):
    model.train()
    for batch_idx, (data, target) in enumerate(data_loader):
        optimizer.zero_grad()
        output = model(data.to(device))
        loss = F.nll_loss(output, target.to(device))
        loss.backward()
        optimizer.step()
        if batch_idx % args.log_interval == 0:
            print('Train Epoch: {} [{}/{} ({:.0f}%)]\tLoss: {:.6f}'.format(
                epoch, batch_idx * len(data), len(data_loader.dataset),
                100. * batch_idx / len(data_loader), loss.item()))
            if args.dry_run:
                break


def test_epoch(model, device, data_loader):
    model.eval()
    test_loss = 0
    correct = 0
    with torch.no_grad():
        for data, target in data_loader:
            output = model(data.to(device))
            test_loss += F.nll_loss(output, target.to(device), reduction='sum').item()  # sum up batch loss
            pred = output.max(1)[1]  # get the index of the max log-probability
            correct += pred.eq(target.to(device)).sum().item()

    test_loss /= len(data_loader.dataset)
    print('\nTest set: Average loss: {:.4f}, Accuracy: {}/{} ({:.0f}%)\n'.format(
        test_loss, correct, len(data_loader.dataset),
        100. * correct / len(data_loader.dataset)))


if __name__ == '__main__':
    args = parser.parse_args([])
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")

    g = torch.Generator().manual_seed(5)
    y = torch.randint(0, 10, (48,), generator=g)
    x = torch.rand(48, 1, 14, 14, generator=g) + y.view(-1, 1, 1, 1) / 10.0
    dataset1 = TensorDataset(x[:32], y[:32])
    dataset2 = TensorDataset(x[32:], y[32:])
    kwargs = {'batch_size': args.batch_size,
              'shuffle': True}

    torch.manual_seed(args.seed)
    mp.set_start_method('spawn', force=True)

    model = Net().to(device)
    model.share_memory()  # gradients are allocated lazily, so they are not shared here

    processes = []
    for rank in range(args.num_processes):
        p = mp.Process(target=train, args=(rank, args, model, device,
                                           dataset1, kwargs))
        # We first train the model across `num_processes` processes
        p.start()
        processes.append(p)
    for p in processes:
        p.join()
    # The workers drew from their own generators, not from this process's one.
    after_join = round(torch.rand(1).item(), 4)

    # Once training is complete, we can test the model
    test(args, model, device, dataset2, kwargs)
    print('exitcode', [p.exitcode for p in processes], mp.get_start_method(),
          round(model.fc2.bias.sum().item(), 4), after_join)

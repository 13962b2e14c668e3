# torch.nn.utils.prune as the Pruning Tutorial uses it: the name -> name_orig + name_mask
# reparametrization, the forward pre-hook, iterative pruning through PruningContainer,
# random masks under a fixed seed, tie-breaking of l1 selection, global pruning, remove.
import torch
import torch.nn as nn
import torch.nn.utils.prune as prune


def r(t):
    return [round(v, 4) for v in t.reshape(-1).tolist()]


def names(pairs):
    return [n for n, _ in pairs]


def hooks(m):
    return [(type(h).__name__, h._tensor_name) for h in m._forward_pre_hooks.values()]


def err(f):
    try:
        f()
        print('no error')
    except Exception as e:
        print(type(e).__name__, str(e))


torch.manual_seed(0)


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 4, 3)
        self.fc1 = nn.Linear(8, 6)
        self.fc2 = nn.Linear(6, 3)

    def forward(self, x):
        x = torch.relu(self.conv1(x)).mean(dim=(2, 3))
        return self.fc2(torch.relu(self.fc1(torch.cat([x, x], 1))))


model = Net()
module = model.conv1
print(names(module.named_parameters()), names(module.named_buffers()))
print(prune.is_pruned(model))

# random_unstructured: same mask as PyTorch from the same seed
prune.random_unstructured(module, name='weight', amount=0.3)
print(names(module.named_parameters()), names(module.named_buffers()))
print(isinstance(module.weight_orig, nn.Parameter), isinstance(module.weight, nn.Parameter))
print(r(module.weight_mask), int(module.weight_mask.sum()))
print(torch.equal(module.weight, module.weight_orig * module.weight_mask))
print(hooks(module), prune.is_pruned(model))

# l1 by count on the bias
prune.l1_unstructured(module, name='bias', amount=3)
print(names(module.named_parameters()), names(module.named_buffers()))
print(r(module.bias_mask), hooks(module))

# iterative: the amount applies to the channels still unpruned
prune.ln_structured(module, name='weight', amount=0.5, n=2, dim=0)
print(r(module.weight_mask.sum(dim=(1, 2, 3))))
hook = [h for h in module._forward_pre_hooks.values() if h._tensor_name == 'weight'][0]
print(type(hook).__name__, len(hook), [type(m).__name__ for m in hook])
prune.ln_structured(module, name='weight', amount=1, n=1, dim=0)
print(r(module.weight_mask.sum(dim=(1, 2, 3))), len(hook))
print(list(model.state_dict().keys()))

# the pre-hook recomputes the pruned tensor from weight_orig before each forward
with torch.no_grad():
    module.weight_orig.add_(1.0)
module(torch.randn(1, 1, 5, 5))
print(torch.equal(module.weight, module.weight_orig * module.weight_mask))

prune.remove(module, 'weight')
print(names(module.named_parameters()), names(module.named_buffers()), hooks(module))
print(isinstance(module.weight, nn.Parameter), int((module.weight == 0).sum()))

# ties in l1 selection resolve as PyTorch's topk
lin = nn.Linear(4, 3)
with torch.no_grad():
    lin.weight.copy_(torch.tensor([[1., -1., 2., 1.], [0.5, -0.5, 1., 2.], [1., 0.5, -2., 1.]]))
prune.l1_unstructured(lin, 'weight', amount=5)
print(r(lin.weight_mask))
prune.l1_unstructured(lin, 'weight', amount=0.5)
print(r(lin.weight_mask))
lin2 = nn.Linear(5, 4)
with torch.no_grad():
    lin2.weight.copy_(torch.tensor([[1., 1.], [-1., 1.]]).repeat(2, 3)[:, :5])
prune.ln_structured(lin2, 'weight', amount=2, n=1, dim=0)
print(r(lin2.weight_mask.sum(dim=1)))
prune.random_structured(lin2, 'weight', amount=1, dim=1)
print(r(lin2.weight_mask))

# importance scores, identity, custom masks
lin3 = nn.Linear(3, 2)
prune.l1_unstructured(lin3, 'weight', amount=2, importance_scores=torch.tensor([[3., 1., 2.], [0., 5., 4.]]))
print(r(lin3.weight_mask))
prune.identity(lin3, 'bias')
print(r(lin3.bias_mask), names(lin3.named_buffers()))
prune.custom_from_mask(lin3, 'bias', mask=torch.tensor([0, 1]))
print(r(lin3.bias_mask), hooks(lin3))

# global pruning over several tensors
torch.manual_seed(1)
net = Net()
params = ((net.conv1, 'weight'), (net.fc1, 'weight'), (net.fc2, 'weight'))
prune.global_unstructured(params, pruning_method=prune.L1Unstructured, amount=0.25)
print([int((m.weight == 0).sum()) for m, _ in params], hooks(net.fc1))
print(sorted(dict(net.named_buffers()).keys()))
all_w = torch.cat([net.conv1.weight_orig.reshape(-1), net.fc1.weight_orig.reshape(-1), net.fc2.weight_orig.reshape(-1)])
kept = torch.cat([net.conv1.weight_mask.reshape(-1), net.fc1.weight_mask.reshape(-1), net.fc2.weight_mask.reshape(-1)])
print(bool(all_w.abs()[kept == 0].max() <= all_w.abs()[kept == 1].min()))
print(round(net(torch.randn(2, 1, 4, 4)).sum().item(), 4))
prune.global_unstructured(params, pruning_method=prune.RandomUnstructured, amount=10)
print([int((m.weight_mask == 0).sum()) for m, _ in params])

# a custom pruning method
class EveryOther(prune.BasePruningMethod):
    PRUNING_TYPE = 'unstructured'

    def compute_mask(self, t, default_mask):
        mask = default_mask.clone()
        mask.view(-1)[::2] = 0
        return mask


fc = nn.Linear(3, 2)
EveryOther.apply(fc, 'bias')
print(r(fc.bias_mask))
print(r(prune.L1Unstructured(amount=2).prune(torch.tensor([3., -1., 0.5, 2.]))))

# errors
err(lambda: prune.l1_unstructured(nn.Linear(2, 2), 'weight', amount=-1))
err(lambda: prune.l1_unstructured(nn.Linear(2, 2), 'weight', amount=1.5))
err(lambda: prune.l1_unstructured(nn.Linear(2, 2), 'weight', amount='a'))
bad = nn.Linear(2, 2)
err(lambda: prune.l1_unstructured(bad, 'weight', amount=5))
print(names(bad.named_parameters()), names(bad.named_buffers()))
err(lambda: prune.ln_structured(nn.Linear(2, 2), 'bias', amount=1, n=2, dim=0))
err(lambda: prune.ln_structured(nn.Linear(2, 2), 'weight', amount=1, n=2, dim=2))
err(lambda: prune.remove(nn.Linear(2, 2), 'weight'))
err(lambda: prune.global_unstructured([(nn.Linear(2, 2), 'weight')], pruning_method=prune.LnStructured,
                                      amount=1, n=2, dim=0))
err(lambda: prune.global_unstructured(3, pruning_method=prune.L1Unstructured, amount=1))
err(lambda: prune.BasePruningMethod())

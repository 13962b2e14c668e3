# torch.optim.Rprop and torch.optim.LBFGS (fixed step and strong Wolfe line search): parameter
# trajectories, state contents and sizes, state_dict round trips, argument errors.
import copy

import torch


def r(t, n=4):
    return [round(v, n) for v in t.detach().reshape(-1).tolist()]


def quad_params(dtype=torch.float32):
    torch.manual_seed(0)
    w = torch.randn(3, 2).to(dtype).requires_grad_()
    b = torch.randn(2).to(dtype).requires_grad_()
    return w, b


X = torch.linspace(-1, 1, 15).reshape(5, 3)
Y = torch.tensor([[0.5, -0.2], [0.1, 0.3], [-0.4, 0.2], [0.3, 0.0], [0.2, -0.1]])


def loss_of(w, b):
    return ((torch.tanh(X.to(w.dtype) @ w + b) - Y.to(w.dtype)) ** 2).mean()


print('--- Rprop')
for kw in [{}, {'lr': 0.05, 'etas': (0.3, 1.5), 'step_sizes': (1e-3, 0.2)}, {'maximize': True},
           {'foreach': False}]:
    w, b = quad_params()
    opt = torch.optim.Rprop([w, b], **kw)
    for _ in range(6):
        opt.zero_grad()
        loss = loss_of(w, b)
        loss.backward()
        opt.step()
    print(kw, round(loss.item(), 5), r(w), r(b))
    st = opt.state[w]
    print(sorted(st.keys()), float(st['step']), r(st['step_size']), r(st['prev'], 5))

# A gradient that flips sign: that element's step is undone and its remembered gradient zeroed.
p = torch.tensor([1.0, -2.0, 0.5], requires_grad=True)
opt = torch.optim.Rprop([p], lr=0.1)
for g in ([1.0, -1.0, 0.0], [-1.0, -2.0, 3.0], [2.0, 1.0, 3.0], [0.0, 1.0, -1.0]):
    p.grad = torch.tensor(g)
    opt.step()
    print(r(p), r(opt.state[p]['step_size']), r(opt.state[p]['prev']))

sd = opt.state_dict()
print(sd['param_groups'])
print(sorted(sd['state'][0].keys()))
p2 = torch.tensor([1.0, -2.0, 0.5], requires_grad=True)
opt2 = torch.optim.Rprop([p2], lr=0.1)
opt2.load_state_dict(sd)
p2.grad = torch.tensor([1.0, 1.0, 1.0])
opt2.step()
print(r(p2), r(opt2.state[p2]['step_size']), float(opt2.state[p2]['step']))
for bad in [{'lr': -1.0}, {'etas': (1.2, 0.5)}, {'etas': (0.5, 1.0)}]:
    try:
        torch.optim.Rprop([p], **bad)
    except ValueError as e:
        print('ValueError', e)
print(opt)

print('--- LBFGS')
# float64: L-BFGS near a minimum divides differences of nearly equal gradients, which would
# magnify float32 rounding differences between libraries.


def run_lbfgs(steps=2, dtype=torch.float64, **kw):
    w, b = quad_params(dtype)
    opt = torch.optim.LBFGS([w, b], **kw)
    calls = [0]

    def closure():
        calls[0] += 1
        opt.zero_grad()
        loss = loss_of(w, b)
        loss.backward()
        return loss

    losses = []
    for _ in range(steps):
        losses.append(round(opt.step(closure).item(), 5))
    return opt, w, b, losses, calls[0]


# Few iterations each: over many, L-BFGS's history amplifies last-bit differences between
# builds (vectorized or not, FMA or not) into the printed digits.
for kw in [{'lr': 0.3, 'max_iter': 4}, {'lr': 0.5, 'max_iter': 5}, {'history_size': 3, 'max_iter': 4},
           {'line_search_fn': 'strong_wolfe', 'max_iter': 4},
           {'line_search_fn': 'strong_wolfe', 'history_size': 2, 'max_iter': 4},
           {'max_iter': 4, 'max_eval': 3}, {'maximize': True, 'lr': 0.01, 'max_iter': 3},
           {'dtype': torch.float32, 'max_iter': 3, 'line_search_fn': 'strong_wolfe'}]:
    opt, w, b, losses, calls = run_lbfgs(**kw)
    st = opt.state[w]
    print(kw, losses, calls, round(loss_of(w, b).item(), 5))
    print('  ', r(w), r(b))
    print('  ', st['func_evals'], st['n_iter'], len(st['old_dirs']), len(st['old_stps']), len(st['ro']),
          len(st.get('al', [])), round(float(st['t']), 5), round(float(st['H_diag']), 5),
          list(st['d'].shape), round(st['prev_loss'], 5))
    print('  ', list(opt.state.keys())[0] is w, len(opt.state), b in opt.state)

opt, w, b, losses, calls = run_lbfgs(steps=1, max_iter=4)
sd = opt.state_dict()
print(sd['param_groups'])
print(sorted(sd['state'].keys()), sorted(sd['state'][0].keys()))
w2, b2 = quad_params(torch.float64)
opt2 = torch.optim.LBFGS([w2, b2], max_iter=4)
opt2.load_state_dict(copy.deepcopy(sd))
with torch.no_grad():
    w2.copy_(w)
    b2.copy_(b)


def closure2():
    opt2.zero_grad()
    loss = loss_of(w2, b2)
    loss.backward()
    return loss


opt2.step(closure2)
opt.step(lambda: (opt.zero_grad(), loss_of(w, b).backward(), loss_of(w, b))[2])
print(r(w2), r(w), opt2.state[w2]['n_iter'], opt.state[w]['n_iter'])

# Converged already: the step returns after one evaluation.
z = torch.zeros(2, requires_grad=True)
optz = torch.optim.LBFGS([z])


def flat():
    optz.zero_grad()
    loss = (z * 0.0).sum()
    loss.backward()
    return loss


print(optz.step(flat).item(), optz.state[z]['func_evals'], optz.state[z]['n_iter'], sorted(optz.state[z].keys()))
try:
    torch.optim.LBFGS([{'params': [w]}, {'params': [b]}])
except ValueError as e:
    print('ValueError', e)
try:
    torch.optim.LBFGS([w], lr=-0.1)
except ValueError as e:
    print('ValueError', e)
try:
    bad = torch.optim.LBFGS([w], line_search_fn='armijo')
    bad.step(lambda: (bad.zero_grad(), loss_of(w, b).backward(), loss_of(w, b))[2])
except RuntimeError as e:
    print('RuntimeError', e)
print(torch.optim.LBFGS([w]).defaults)

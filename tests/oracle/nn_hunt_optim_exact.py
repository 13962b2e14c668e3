# The adaptive optimizers against their single-tensor update written out with
# the same ops (lerp_, addcmul_, addcdiv_): the parameters must agree bit for
# bit (an add_ of a quotient rounds differently from addcdiv_). NAdam's
# mu_product is a float32 tensor.
import math
import torch

torch.manual_seed(0)
P0 = torch.randn(40)
GRADS = [torch.randn(40) for _ in range(4)]


def run(make):
    p = torch.nn.Parameter(P0.clone())
    opt = make([p])
    for g in GRADS:
        p.grad = g.clone()
        opt.step()
    return p.detach(), opt.state[p]


def check(name, make, manual):
    got, state = run(make)
    want = P0.clone()
    st = {}
    for i, g in enumerate(GRADS):
        manual(want, g.clone(), st, i + 1)
    print(name, torch.equal(got, want), round(got[:3].sum().item(), 4))
    return state


def adam(p, g, st, step, lr=0.01, b1=0.9, b2=0.999, eps=1e-8):
    if not st:
        st['m'] = torch.zeros_like(p)
        st['v'] = torch.zeros_like(p)
    st['m'].lerp_(g, 1 - b1)
    st['v'].mul_(b2).addcmul_(g, g, value=1 - b2)
    denom = (st['v'].sqrt() / math.sqrt(1 - b2 ** step)).add_(eps)
    p.addcdiv_(st['m'], denom, value=-lr / (1 - b1 ** step))


def adamw(p, g, st, step):
    p.mul_(1 - 0.01 * 0.1)
    adam(p, g, st, step)


def adamax(p, g, st, step, lr=0.02, b1=0.9, b2=0.999, eps=1e-8):
    if not st:
        st['m'] = torch.zeros_like(p)
        st['u'] = torch.zeros_like(p)
    st['m'].lerp_(g, 1 - b1)
    st['u'].copy_(torch.maximum(st['u'].mul_(b2), g.abs().add_(eps)))
    p.addcdiv_(st['m'], st['u'], value=-lr / (1 - b1 ** step))


def nadam(p, g, st, step, lr=0.01, b1=0.9, b2=0.999, eps=1e-8, psi=0.004):
    if not st:
        st['m'] = torch.zeros_like(p)
        st['v'] = torch.zeros_like(p)
        st['prod'] = torch.ones(())
    mu = b1 * (1 - 0.5 * 0.96 ** (step * psi))
    mu_next = b1 * (1 - 0.5 * 0.96 ** ((step + 1) * psi))
    st['prod'].mul_(mu)
    prod = st['prod'].item()
    st['m'].lerp_(g, 1 - b1)
    st['v'].mul_(b2).addcmul_(g, g, value=1 - b2)
    denom = st['v'].div(1 - b2 ** step).sqrt().add_(eps)
    p.addcdiv_(g, denom, value=-lr * (1 - mu) / (1 - prod))
    p.addcdiv_(st['m'], denom, value=-lr * mu_next / (1 - prod * mu_next))


def adagrad(p, g, st, step, lr=0.05, eps=1e-10):
    if not st:
        st['s'] = torch.zeros_like(p)
    st['s'].addcmul_(g, g, value=1)
    p.addcdiv_(g, st['s'].sqrt().add_(eps), value=-lr)


def rmsprop(p, g, st, step, lr=0.01, alpha=0.99, eps=1e-8, momentum=0.5):
    if not st:
        st['sq'] = torch.zeros_like(p)
        st['ga'] = torch.zeros_like(p)
        st['buf'] = torch.zeros_like(p)
    st['sq'].mul_(alpha).addcmul_(g, g, value=1 - alpha)
    st['ga'].lerp_(g, 1 - alpha)
    avg = st['sq'].addcmul(st['ga'], st['ga'], value=-1).sqrt_().add_(eps)
    st['buf'].mul_(momentum).addcdiv_(g, avg)
    p.add_(st['buf'], alpha=-lr)


def adadelta(p, g, st, step, lr=1.0, rho=0.9, eps=1e-6):
    if not st:
        st['sq'] = torch.zeros_like(p)
        st['acc'] = torch.zeros_like(p)
    st['sq'].mul_(rho).addcmul_(g, g, value=1 - rho)
    std = st['sq'].add(eps).sqrt_()
    delta = st['acc'].add(eps).sqrt_().div_(std).mul_(g)
    st['acc'].mul_(rho).addcmul_(delta, delta, value=1 - rho)
    p.add_(delta, alpha=-lr)


O = torch.optim
check("Adam", lambda ps: O.Adam(ps, lr=0.01), adam)
check("AdamW", lambda ps: O.AdamW(ps, lr=0.01, weight_decay=0.1), adamw)
check("Adamax", lambda ps: O.Adamax(ps, lr=0.02), adamax)
state = check("NAdam", lambda ps: O.NAdam(ps, lr=0.01), nadam)
print(state['mu_product'].dtype, state['mu_product'].dim(), round(state['mu_product'].item(), 6))
check("Adagrad", lambda ps: O.Adagrad(ps, lr=0.05), adagrad)
check("RMSprop", lambda ps: O.RMSprop(ps, lr=0.01, centered=True, momentum=0.5), rmsprop)
check("Adadelta", lambda ps: O.Adadelta(ps), adadelta)

# NAdam's float32 mu_product survives a state_dict round trip.
p = torch.nn.Parameter(P0.clone())
opt = O.NAdam([p], lr=0.01)
p.grad = GRADS[0].clone()
opt.step()
opt2 = O.NAdam([p], lr=0.01)
opt2.load_state_dict(opt.state_dict())
p.grad = GRADS[1].clone()
opt2.step()
print(round(opt2.state[p]['mu_product'].item(), 6), round(p[:3].sum().item(), 4))

# The official PyTorch tutorials' reinforcement-learning DQN, written from
# memory and shrunk: namedtuple Transition, deque replay memory, epsilon-greedy
# policy, target net soft update through state_dict(), SmoothL1Loss, gather,
# clip_grad_value_, over a tiny deterministic environment in the script. Then
# what it leans on: namedtuples and tuple subclasses (typing.NamedTuple too),
# deque; and "Learning PyTorch with Examples"'s custom autograd.Function
# (LegendrePolynomial3) with torch.autograd.gradcheck / gradgradcheck.
import math
import random
from collections import namedtuple, deque
from itertools import count

import torch
import torch.nn as nn
import torch.optim as optim
import torch.nn.functional as F

random.seed(0)
torch.manual_seed(0)

Transition = namedtuple('Transition', ('state', 'action', 'next_state', 'reward'))
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
print(Transition)
print(Transition._fields)
t0 = Transition(1, 2, 3, 4)
print(t0, t0._asdict(), t0._replace(reward=5))


class ReplayMemory(object):

    def __init__(self, capacity):
        self.memory = deque([], maxlen=capacity)

    def push(self, *args):
        """Save a transition"""
        self.memory.append(Transition(*args))

    def sample(self, batch_size):
        return random.sample(self.memory, batch_size)

    def __len__(self):
        return len(self.memory)


class DQN(nn.Module):

    def __init__(self, n_observations, n_actions):
        super(DQN, self).__init__()
        self.layer1 = nn.Linear(n_observations, 32)
        self.layer2 = nn.Linear(32, 32)
        self.layer3 = nn.Linear(32, n_actions)

    def forward(self, x):
        x = F.relu(self.layer1(x))
        x = F.relu(self.layer2(x))
        return self.layer3(x)


class LineWorld:
    """Tiny deterministic env: walk on a line, reach +N."""
    def __init__(self, n=5):
        self.n = n
        self.pos = 0
        self.steps = 0

    def reset(self, seed=None):
        self.pos = 0
        self.steps = 0
        return [float(self.pos) / self.n, 0.0, 1.0, float(self.steps)], {}

    def step(self, action):
        self.pos += 1 if action == 1 else -1
        self.steps += 1
        terminated = self.pos >= self.n
        truncated = self.steps >= 20 or self.pos <= -self.n
        reward = 1.0 if terminated else -0.1
        obs = [float(self.pos) / self.n, float(action), 1.0, float(self.steps) / 20]
        return obs, reward, terminated, truncated, {}


BATCH_SIZE = 16
GAMMA = 0.99
EPS_START = 0.9
EPS_END = 0.05
EPS_DECAY = 100
TAU = 0.005
LR = 1e-3

env = LineWorld()
n_actions = 2
state, info = env.reset()
n_observations = len(state)

policy_net = DQN(n_observations, n_actions).to(device)
target_net = DQN(n_observations, n_actions).to(device)
print(target_net.load_state_dict(policy_net.state_dict()))
print(policy_net)

optimizer = optim.AdamW(policy_net.parameters(), lr=LR, amsgrad=True)
memory = ReplayMemory(200)
steps_done = 0


def select_action(state):
    global steps_done
    sample = random.random()
    eps_threshold = EPS_END + (EPS_START - EPS_END) * \
        math.exp(-1. * steps_done / EPS_DECAY)
    steps_done += 1
    if sample > eps_threshold:
        with torch.no_grad():
            return policy_net(state).max(1).indices.view(1, 1)
    else:
        return torch.tensor([[random.randrange(n_actions)]], device=device, dtype=torch.long)


episode_durations = []


def optimize_model():
    if len(memory) < BATCH_SIZE:
        return None
    transitions = memory.sample(BATCH_SIZE)
    batch = Transition(*zip(*transitions))
    non_final_mask = torch.tensor(tuple(map(lambda s: s is not None,
                                          batch.next_state)), device=device, dtype=torch.bool)
    non_final_next_states = torch.cat([s for s in batch.next_state
                                                if s is not None])
    state_batch = torch.cat(batch.state)
    action_batch = torch.cat(batch.action)
    reward_batch = torch.cat(batch.reward)
    state_action_values = policy_net(state_batch).gather(1, action_batch)
    next_state_values = torch.zeros(BATCH_SIZE, device=device)
    with torch.no_grad():
        next_state_values[non_final_mask] = target_net(non_final_next_states).max(1).values
    expected_state_action_values = (next_state_values * GAMMA) + reward_batch
    criterion = nn.SmoothL1Loss()
    loss = criterion(state_action_values, expected_state_action_values.unsqueeze(1))
    optimizer.zero_grad()
    loss.backward()
    torch.nn.utils.clip_grad_value_(policy_net.parameters(), 100)
    optimizer.step()
    return loss.item()


num_episodes = 12
losses = []
for i_episode in range(num_episodes):
    state, info = env.reset()
    state = torch.tensor(state, dtype=torch.float32, device=device).unsqueeze(0)
    for t in count():
        action = select_action(state)
        observation, reward, terminated, truncated, _ = env.step(action.item())
        reward = torch.tensor([reward], device=device)
        done = terminated or truncated
        if terminated:
            next_state = None
        else:
            next_state = torch.tensor(observation, dtype=torch.float32, device=device).unsqueeze(0)
        memory.push(state, action, next_state, reward)
        state = next_state
        l = optimize_model()
        if l is not None:
            losses.append(l)
        target_net_state_dict = target_net.state_dict()
        policy_net_state_dict = policy_net.state_dict()
        for key in policy_net_state_dict:
            target_net_state_dict[key] = policy_net_state_dict[key]*TAU + target_net_state_dict[key]*(1-TAU)
        target_net.load_state_dict(target_net_state_dict)
        if done:
            episode_durations.append(t + 1)
            break

print('Complete')
print(episode_durations)
print(len(memory), memory.memory.maxlen, steps_done)
print(losses[::10])
durations_t = torch.tensor(episode_durations, dtype=torch.float)
print(durations_t.cpu())
if len(durations_t) >= 4:
    means = durations_t.unfold(0, 4, 1).mean(1).view(-1)
    means = torch.cat((torch.zeros(3), means))
    print(means.cpu())
print(target_net.layer3.weight.detach().cpu())
print(list(target_net.state_dict().keys()))
sd = policy_net.state_dict()
print(type(sd).__name__, sd['layer1.bias'].shape)
print(memory.memory[0].action, memory.memory[-1].reward)
d = deque(range(5), maxlen=3)
print(d, d.maxlen, repr(deque()), deque([1, 2]) == deque([1, 2]))
d.appendleft(9); print(d); d.extend([7, 8]); print(d); d.rotate(1); print(d)
print(d.popleft(), d.pop(), d, list(reversed(d)), d.count(7), d.index(3))
res = target_net.load_state_dict(policy_net.state_dict(), strict=False)
print(res, res.missing_keys, res.unexpected_keys)
try:
    target_net.load_state_dict({'foo': torch.zeros(1)})
except RuntimeError as e:
    print(str(e))
q = policy_net(torch.zeros(3, 4))
print(q.max(1), q.max(1)[0].shape, q.argmax(dim=1))
print(random.sample(range(10), 3), random.choice([1,2,3]))
p = nn.Parameter(torch.tensor([200., -300., 1.]))
p.grad = torch.tensor([200., -300., 1.])
torch.nn.utils.clip_grad_value_([p], 100)
print(p.grad)
print(nn.SmoothL1Loss(beta=0.5)(torch.tensor([0.1, 2.]), torch.tensor([0., 0.])), nn.HuberLoss(delta=0.5)(torch.tensor([0.1, 2.]), torch.tensor([0., 0.])))

# ---- namedtuple and tuple subclasses ----
T = namedtuple('T', 'x y')
t = T(1, 2)
print(isinstance(t, tuple), t == (1, 2), t + (3,), t[:1], tuple(t), list(t), sorted([T(2,1), T(1,2)]))
x, y = t
print(x, y, t.count(1), t.index(2), hash(t) == hash((1, 2)), T._make([3, 4]), t.__class__.__name__, T.__module__)
print(T, repr(T), str(T), T.__qualname__, T._field_defaults)
print(torch.tensor(t), max(t), sum(t), '%d %d' % t, "{} {}".format(*t))
d = {t: 1}; print(d[(1, 2)])
try:
    t.x = 5
except AttributeError as e:
    print('AE', e)
print(T(x=1, y=2), T(1, y=3))
try:
    T(1)
except TypeError as e:
    print(e)
try:
    T(1, 2, 3)
except TypeError as e:
    print(e)
D = namedtuple('D', ['a', 'b'], defaults=[0])
print(D(1), D._fields, D._field_defaults)
R = namedtuple('R', 'a def a', rename=True)
print(R._fields)
print(t < (1, 3), t * 2, 2 in t, t._asdict())
import copy
print(copy.copy(t), copy.deepcopy(t))
y = copy.deepcopy(T([1], 2)); print(y, type(y).__name__, copy.copy(t))
class Point(namedtuple('Point', ['x', 'y'])):
    __slots__ = ()
    @property
    def hypot(self):
        return (self.x ** 2 + self.y ** 2) ** 0.5
    def __str__(self):
        return 'Point: x=%6.3f  y=%6.3f  hypot=%6.3f' % (self.x, self.y, self.hypot)
for p in Point(3, 4), Point(14, 5/7):
    print(p)
print(repr(Point(1, 2)), Point._make([5, 6]), Point(1, 2)._replace(x=9), type(Point(1,2)._replace(x=9)).__name__, Point.__mro__)
class P(tuple):
    def __new__(cls, a, b):
        return tuple.__new__(cls, (a, b))
    @property
    def a(self): return self[0]
    def total(self): return sum(self)
p = P(1, 2)
print(p, isinstance(p, tuple), p.a, p.total(), len(p), p + (3,), type(p).__name__, type(p).__module__, type(p).__qualname__, type(p + (3,)))
class Q(tuple):
    pass
q = Q([1, 2, 3])
print(q, type(q), Q(), q == (1, 2, 3), tuple(q), type(tuple(q)), q[1:], hash(q) == hash((1, 2, 3)))
try:
    Q(1, 2)
except TypeError as e:
    print(e)
try:
    t.z = 1
except AttributeError as e:
    print(e)
try:
    T(1, 2, z=3)
except TypeError as e:
    print(e)
try:
    T(1, x=3)
except TypeError as e:
    print(e)
try:
    T()
except TypeError as e:
    print(e)
try:
    D(1, 2, 3)
except TypeError as e:
    print(e)
try:
    namedtuple('Bad', 'a _b')
except ValueError as e:
    print(e)
try:
    namedtuple('Bad', 'a a')
except ValueError as e:
    print(e)
try:
    namedtuple('Bad', 'class x')
except ValueError as e:
    print(e)
try:
    T._make([1])
except TypeError as e:
    print(e)
try:
    t._replace(z=1)
except ValueError as e:
    print(e)
print(T.__doc__, T.x.__doc__, Point(1, 2).__class__.__name__, T._fields, t.__getnewargs__())
from typing import NamedTuple
class Emp(NamedTuple):
    name: str
    id: int = 3
    def describe(self):
        return self.name + '#' + str(self.id)
e = Emp('ann')
print(e, e.describe(), isinstance(e, tuple), Emp._fields, Emp._field_defaults, Emp.__annotations__, e._replace(id=4), type(e).__name__, e == ('ann', 3))
E2 = NamedTuple('E2', [('a', int), ('b', float)])
print(E2(1, 2.0), E2.__module__, Emp.__module__)
r = torch.max(torch.tensor([[1., 5.], [3., 2.]]), 1)
print(tuple(r), type(tuple(r)).__name__, type(r).__name__)
m = {T(1, 2): 'a'}
print(m, sorted({T(2, 1), T(1, 2)}), [a * b for a, b in [T(2, 3)]], max(T(1, 5)), T(*range(2)), T(**{'x': 1, 'y': 2}))
a = T([1], [2]); b = copy.deepcopy(a); b.x.append(5); print(a, b, type(b).__name__, copy.deepcopy(torch.Size([2, 3])), copy.deepcopy(r).indices, type(copy.deepcopy(r)).__name__)

# ---- Learning PyTorch with Examples: a custom autograd.Function ----
x = torch.linspace(-math.pi, math.pi, 200)
y = torch.sin(x)
dtype = torch.float
device = x.device
class LegendrePolynomial3(torch.autograd.Function):
    @staticmethod
    def forward(ctx, input):
        ctx.save_for_backward(input)
        return 0.5 * (5 * input ** 3 - 3 * input)

    @staticmethod
    def backward(ctx, grad_output):
        input, = ctx.saved_tensors
        return grad_output * 1.5 * (5 * input ** 2 - 1)

a = torch.full((), 0.0, device=device, dtype=dtype, requires_grad=True)
b = torch.full((), -1.0, device=device, dtype=dtype, requires_grad=True)
c = torch.full((), 0.0, device=device, dtype=dtype, requires_grad=True)
d = torch.full((), 0.3, device=device, dtype=dtype, requires_grad=True)
learning_rate = 5e-6
for t in range(200):
    P3 = LegendrePolynomial3.apply
    y_pred = a + b * P3(c + d * x)
    loss = (y_pred - y).pow(2).sum()
    if t % 100 == 99:
        print(t, loss.item())
    loss.backward()
    with torch.no_grad():
        a -= learning_rate * a.grad
        b -= learning_rate * b.grad
        c -= learning_rate * c.grad
        d -= learning_rate * d.grad
        a.grad = None
        b.grad = None
        c.grad = None
        d.grad = None
# a and c stay at 0 up to rounding (the sums cancel), whose sign is the summation order's: printed as 0.
print(f'Result: y = {round(a.item(), 6) + 0.0:.6f} + {b.item():.6f} * P3({round(c.item(), 6) + 0.0:.6f} + {d.item():.6f} x)')
print(type(y_pred.grad_fn).__name__)
print(LegendrePolynomial3.apply(torch.tensor([0.5], requires_grad=True)).grad_fn.name())
inp = torch.tensor([0.1, 0.7], dtype=torch.double, requires_grad=True)
print(torch.autograd.gradcheck(LegendrePolynomial3.apply, (inp,), eps=1e-6, atol=1e-4))


# ---- gradcheck ----
class Bad(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, y):
        ctx.save_for_backward(x, y)
        return x * y, x + y
    @staticmethod
    def backward(ctx, g1, g2):
        x, y = ctx.saved_tensors
        return g1 * y * 2 + g2, g1 * x + g2
x = torch.tensor([0.5, -1.0], dtype=torch.double, requires_grad=True)
y = torch.tensor([2.0, 3.0], dtype=torch.double, requires_grad=True)
print(torch.autograd.gradcheck(lambda a, b: a * b + b.sin(), (x, y)))
try:
    torch.autograd.gradcheck(Bad.apply, (x, y))
except RuntimeError as e:
    print(type(e).__name__, type(e).__mro__[1].__name__)
    print(e)
print(torch.autograd.gradcheck(Bad.apply, (x, y), raise_exception=False))
try:
    torch.autograd.gradcheck(torch.sin, (torch.zeros(2, dtype=torch.double),))
except ValueError as e:
    print(e)
print(torch.autograd.gradcheck(torch.sin, torch.ones(2, 2, dtype=torch.double, requires_grad=True), eps=1e-6, atol=1e-4))
print(torch.autograd.gradcheck(lambda a, n: a.pow(n), (x, 3)))
print(torch.autograd.gradgradcheck(lambda a: a.pow(3).sum(), (x,)) if hasattr(torch.autograd, 'gradgradcheck') else None)
class Cube(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x ** 3
    @staticmethod
    def backward(ctx, g):
        x, = ctx.saved_tensors
        return g * 3 * x ** 2
class BadCube(Cube):  # a backward that is right once but not twice (it detaches)
    @staticmethod
    def backward(ctx, g):
        x, = ctx.saved_tensors
        return g * 3 * x.detach() ** 2
print(torch.autograd.gradgradcheck(Cube.apply, (x,)), torch.autograd.gradcheck(BadCube.apply, (x,)))
print(torch.autograd.gradgradcheck(lambda a, b: (a * b).tanh(), (x, torch.ones(2, dtype=torch.double, requires_grad=True))))
try:
    torch.autograd.gradgradcheck(BadCube.apply, (x,))
except RuntimeError as e:
    print(str(e).split(',')[0])

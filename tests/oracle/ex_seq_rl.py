# reinforcement_learning in the style of pytorch/examples, on a small
# in-script cart-pole: REINFORCE (Categorical sampling, saved log-probs,
# discounted returns in a deque, normalised with a constant float32 eps,
# Adam, itertools.count episodes) and then actor-critic (a shared body with
# action and value heads, SavedAction namedtuples, smooth_l1_loss for the
# critic, returns built with list.insert).
import argparse
import math
import random
from collections import deque, namedtuple
from itertools import count
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim
from torch.distributions import Categorical

parser = argparse.ArgumentParser(description='PyTorch REINFORCE example')
parser.add_argument('--gamma', type=float, default=0.99, metavar='G',
                    help='discount factor (default: 0.99)')
parser.add_argument('--seed', type=int, default=543, metavar='N',
                    help='random seed (default: 543)')
parser.add_argument('--render', action='store_true',
                    help='render the environment')
parser.add_argument('--log-interval', type=int, default=2, metavar='N',
                    help='interval between training status logs (default: 2)')
args = parser.parse_args([])

class CartPoleEnv(object):
    # A tiny deterministic cart-pole (the classic Barto-Sutton dynamics with
    # Euler steps); the start state comes from its own seeded random.Random.
    def __init__(self, seed, max_steps=30):
        self.rng = random.Random(seed)
        self.max_steps = max_steps
        self.reward_threshold = 30.0
        self.state = None
        self.steps = 0

    def reset(self):
        self.state = [self.rng.uniform(-0.05, 0.05) for _ in range(4)]
        self.steps = 0
        return list(self.state), {}

    def step(self, action):
        x, x_dot, theta, theta_dot = self.state
        force = 10.0 if action == 1 else -10.0
        costheta, sintheta = math.cos(theta), math.sin(theta)
        temp = (force + 0.05 * theta_dot ** 2 * sintheta) / 1.1
        thetaacc = (9.8 * sintheta - costheta * temp) / (0.5 * (4.0 / 3.0 - 0.1 * costheta ** 2 / 1.1))
        xacc = temp - 0.05 * thetaacc * costheta / 1.1
        x = x + 0.02 * x_dot
        x_dot = x_dot + 0.02 * xacc
        theta = theta + 0.02 * theta_dot
        theta_dot = theta_dot + 0.02 * thetaacc
        self.state = [x, x_dot, theta, theta_dot]
        self.steps += 1
        done = abs(x) > 2.4 or abs(theta) > 12 * 2 * math.pi / 360 or self.steps >= self.max_steps
        return list(self.state), 1.0, done, False, {}


# ---- REINFORCE ----
env = CartPoleEnv(args.seed)
torch.manual_seed(args.seed)

class Policy(nn.Module):
    def __init__(self):
        super(Policy, self).__init__()
        self.affine1 = nn.Linear(4, 16)
        self.dropout = nn.Dropout(p=0.6)
        self.affine2 = nn.Linear(16, 2)
        self.saved_log_probs = []
        self.rewards = []

    def forward(self, x):
        x = self.affine1(x)
        x = self.dropout(x)
        x = F.relu(x)
        action_scores = self.affine2(x)
        return F.softmax(action_scores, dim=1)

policy = Policy()
optimizer = optim.Adam(policy.parameters(), lr=1e-2)
eps = 1.1920928955078125e-07  # np.finfo(np.float32).eps

def select_action(state):
    state = torch.tensor(state).float().unsqueeze(0)
    probs = policy(state)
    m = Categorical(probs)
    action = m.sample()
    policy.saved_log_probs.append(m.log_prob(action))
    return action.item()

def finish_episode():
    R = 0
    policy_loss = []
    returns = deque()
    for r in policy.rewards[::-1]:
        R = r + args.gamma * R
        returns.appendleft(R)
    returns = torch.tensor(returns)
    returns = (returns - returns.mean()) / (returns.std() + eps)
    for log_prob, R in zip(policy.saved_log_probs, returns):
        policy_loss.append(-log_prob * R)
    optimizer.zero_grad()
    policy_loss = torch.cat(policy_loss).sum()
    policy_loss.backward()
    optimizer.step()
    del policy.rewards[:]
    del policy.saved_log_probs[:]
    return policy_loss.item()

def main(agent, log_interval):
    running_reward = 10
    for i_episode in count(1):
        state, _ = env.reset()
        ep_reward = 0
        for t in range(1, 10000):
            action = select_action(state)
            state, reward, done, _, _ = env.step(action)
            if args.render:
                print(state)
            agent.rewards.append(reward)
            ep_reward += reward
            if done:
                break
        running_reward = 0.05 * ep_reward + (1 - 0.05) * running_reward
        loss = finish_episode()
        if i_episode % log_interval == 0:
            print('Episode {}\tLast reward: {:.2f}\tAverage reward: {:.2f}\tloss {:.4f}'.format(
                  i_episode, ep_reward, running_reward, loss))
        if running_reward > env.reward_threshold or i_episode >= 8:
            print("Stopped! Running reward is now {} and "
                  "the last episode runs to {} time steps!".format(round(running_reward, 6), t))
            break

main(policy, args.log_interval)
print('weights', [round(v, 4) for v in policy.affine2.weight[0, :5].tolist()])
st = optimizer.state[policy.affine1.bias]
print('adam step', st['step'].item(), round(st['exp_avg_sq'].sum().item(), 8))


# ---- actor-critic ----
GAMMA = 0.99
SEED = 543
LOG_INTERVAL = 3

env = CartPoleEnv(SEED)
torch.manual_seed(SEED)

SavedAction = namedtuple('SavedAction', ['log_prob', 'value'])

class Policy(nn.Module):
    """implements both actor and critic in one model"""
    def __init__(self):
        super(Policy, self).__init__()
        self.affine1 = nn.Linear(4, 16)
        self.action_head = nn.Linear(16, 2)
        self.value_head = nn.Linear(16, 1)
        self.saved_actions = []
        self.rewards = []

    def forward(self, x):
        x = F.relu(self.affine1(x))
        action_prob = F.softmax(self.action_head(x), dim=-1)
        state_values = self.value_head(x)
        return action_prob, state_values

model = Policy()
optimizer = optim.Adam(model.parameters(), lr=3e-2)

def select_action(state):
    state = torch.tensor(state).float()
    probs, state_value = model(state)
    m = Categorical(probs)
    action = m.sample()
    model.saved_actions.append(SavedAction(m.log_prob(action), state_value))
    return action.item()

def finish_episode():
    R = 0
    saved_actions = model.saved_actions
    policy_losses = []
    value_losses = []
    returns = []
    for r in model.rewards[::-1]:
        R = r + GAMMA * R
        returns.insert(0, R)
    returns = torch.tensor(returns)
    returns = (returns - returns.mean()) / (returns.std() + eps)
    for (log_prob, value), R in zip(saved_actions, returns):
        advantage = R - value.item()
        policy_losses.append(-log_prob * advantage)
        value_losses.append(F.smooth_l1_loss(value, torch.tensor([R])))
    optimizer.zero_grad()
    loss = torch.stack(policy_losses).sum() + torch.stack(value_losses).sum()
    loss.backward()
    optimizer.step()
    del model.rewards[:]
    del model.saved_actions[:]
    return loss.item()

# main() looks select_action and finish_episode up when it runs: the
# actor-critic versions now.
sa = SavedAction(torch.tensor(0.5), torch.tensor([1.0]))
print(sa, sa._fields, sa.log_prob.item())
main(model, LOG_INTERVAL)
print('value head', [round(v, 4) for v in model.value_head.weight[0, :5].tolist()])
probs, v = model(torch.zeros(4))
print('probs', [round(p, 4) for p in probs.tolist()], round(v.item(), 4))
m = Categorical(probs)
print('entropy', round(m.entropy().item(), 5), m.probs.shape, m.logits.shape)

# In-place ops whose result dtype can't be written into self raise PyTorch's
# cast error before any kernel's dtype check, and leave self unchanged.
import torch


def attempt(label, fn):
    t = fn[0]()
    try:
        fn[1](t)
        print(label, 'ok', t.tolist())
    except Exception as e:
        print(label, type(e).__name__, e, t.tolist())


def aug(op):
    def run(t):
        if op == '&': t &= 1.5
        elif op == '|': t |= torch.tensor([1.0, 2.0, 3.0])
        elif op == '^': t ^= 2.0
        elif op == '<<': t <<= 1.0
        elif op == '>>': t >>= torch.tensor(1.0)
        elif op == '+': t += 1.5
        elif op == '-': t -= 0.5
        elif op == '*': t *= 1.5
        elif op == '/': t /= 2
        elif op == '//': t //= 2.0
        elif op == '%': t %= 1.5
        elif op == '**': t **= 0.5
    return run


ints = lambda: torch.tensor([1, 2, 3])
for op in ['&', '|', '^', '<<', '>>', '+', '-', '*', '/', '//', '%', '**']:
    attempt('int ' + op + '=', (ints, aug(op)))
attempt('bitwise_and_', (ints, lambda t: t.bitwise_and_(1.5)))
attempt('bitwise_or_ tensor', (ints, lambda t: t.bitwise_or_(torch.tensor([0.5, 1.0, 2.0]))))
attempt('bitwise_xor_', (ints, lambda t: t.bitwise_xor_(torch.tensor(3.0))))
attempt('add_ float', (ints, lambda t: t.add_(torch.tensor([1.0, 2.0, 3.0]))))
attempt('mul_ float', (ints, lambda t: t.mul_(torch.tensor(2.5))))
bools = lambda: torch.tensor([True, False, True])
floats = lambda: torch.tensor([1.0, 2.0, 3.0])


def bool_add(t):
    t += 1


def bool_or(t):
    t |= 1


def bool_and(t):
    t &= True


def bool_xor(t):
    t ^= torch.tensor([1, 0, 0])


def float_and(t):
    t &= 1


def float_or(t):
    t |= 2.0


def int_add(t):
    t += 2


def int_and(t):
    t &= 6


def int_and_tensor(t):
    t &= torch.tensor([3, 3, 3])


def int_shift(t):
    t <<= 2


attempt('bool += 1', (bools, bool_add))
attempt('bool |= 1', (bools, bool_or))
attempt('bool &= True', (bools, bool_and))
attempt('bool ^= tensor', (bools, bool_xor))
attempt('float &= 1', (floats, float_and))
attempt('float |= float', (floats, float_or))
attempt('int32 += 2', (lambda: torch.tensor([1, 2], dtype=torch.int32), int_add))
attempt('uint8 &= 6', (lambda: torch.tensor([7, 12], dtype=torch.uint8), int_and))
attempt('int &= int', (ints, int_and_tensor))
attempt('int <<= 2', (ints, int_shift))
attempt('int sub_ alpha', (ints, lambda t: t.sub_(1, alpha=1.5)))
attempt('int add alpha', (ints, lambda t: t.add(torch.tensor([1, 1, 1]), alpha=0.5)))
attempt('int add_ float alpha', (ints, lambda t: t.add_(1.0, alpha=1.5)))
attempt('int add alpha 3', (ints, lambda t: t.add_(torch.tensor([1, 1, 1]), alpha=3)))

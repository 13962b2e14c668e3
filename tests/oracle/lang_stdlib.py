# The standard-library modules beyond math/time/sys: typing (annotation names
# and subscripted forms), dataclasses (config classes), random (CPython's
# Mersenne Twister, seeded: the same draws as CPython).
import random
from dataclasses import dataclass, field, fields, asdict, astuple, replace, is_dataclass
from typing import Dict, List, Optional, Tuple, TypeVar, cast
import torch

T = TypeVar('T')
print(List[int], Optional[torch.Tensor] is not None, Dict[str, float], T, cast(int, 3))


def scaled(x: torch.Tensor, k: Optional[float] = None) -> Tuple[torch.Tensor, int]:
    return x * (k or 1.0), x.numel()


print(scaled(torch.ones(2), 3.0)[0].tolist())


@dataclass
class GPTConfig:
    block_size: int = 8
    vocab_size: int = 16
    n_layer: int = 2
    dropout: float = 0.0
    bias: bool = True
    tags: List[str] = field(default_factory=list)


cfg = GPTConfig(n_layer=4)
print(cfg)
print(cfg == GPTConfig(n_layer=4), cfg == GPTConfig(), cfg.n_layer, GPTConfig.__annotations__['dropout'])
print([f.name for f in fields(cfg)], asdict(replace(cfg, tags=['a']))['tags'], astuple(GPTConfig())[:3])
print(is_dataclass(cfg), is_dataclass(3))


@dataclass(frozen=True, order=True)
class Point:
    x: int
    y: int = 0

    def norm2(self):
        return self.x * self.x + self.y * self.y


p = Point(3, 4)
print(p, p.norm2(), Point(1) < Point(2), sorted([Point(2, 1), Point(1, 5)]), hash(p) == hash(Point(3, 4)))
for bad in [lambda: Point(), lambda: Point(1, 2, 3), lambda: Point(1, z=2)]:
    try:
        bad()
    except TypeError as e:
        print('TypeError:', e)
try:
    p.x = 5
except AttributeError as e:
    print(type(e).__name__, e)


@dataclass
class Child(GPTConfig):
    name: str = 'child'

    def __post_init__(self):
        self.name = self.name.upper()


print(Child(block_size=4))

random.seed(1234)
print(random.random(), random.randint(0, 9), random.choice('xyz'), round(random.uniform(-1, 1), 6))
items = list(range(8))
random.shuffle(items)
print(items, random.sample(range(50), 4), random.randrange(10, 100, 5))
print(round(random.gauss(0.0, 1.0), 12), round(random.gauss(0.0, 1.0), 12))
random.seed(1234)
print(random.random())


def batches(data, size, seed):
    random.seed(seed)
    order = list(range(len(data)))
    random.shuffle(order)
    return [[data[i] for i in order[j:j + size]] for j in range(0, len(order), size)]


for epoch in range(3):
    print(epoch, batches(list('abcdefg'), 3, epoch))

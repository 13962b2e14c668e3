# A sibling module: its body prints once however often it is imported.
import torch

print("mfhelper: body runs, __name__ =", __name__)
counter = 0
OFFSET = 1.0


def bump():
    global counter
    counter += 1
    return counter


def scaled(x, k=2.0):
    # A tensor function the JIT compiles like the script's own.
    return (x * k + OFFSET).relu().sum()


class Acc:
    def __init__(self):
        self.total = 0

    def add(self, v):
        self.total += v
        return self.total


if __name__ == "__main__":
    print("mfhelper: never printed when imported")

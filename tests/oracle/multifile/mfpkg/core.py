from .consts import SCALE


def double(x):
    return x * SCALE

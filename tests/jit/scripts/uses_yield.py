def gen(x):
    yield x

class CM:
    def __enter__(self):
        return self
    def __exit__(self, *a):
        raise KeyError('exit')
with CM():
    raise ValueError('body')

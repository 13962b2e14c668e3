class I:
    def __iter__(self):
        return self
    def __next__(self):
        raise ValueError('boom')
for x in I():
    pass

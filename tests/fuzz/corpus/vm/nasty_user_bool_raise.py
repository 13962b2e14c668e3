class B:
    def __bool__(self):
        raise ValueError('nope')
if B():
    pass

class A:
    def __iter__(self):
        return iter(self)
list(A())

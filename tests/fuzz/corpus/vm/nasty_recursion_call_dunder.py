class A:
    def __call__(self):
        return self()
A()()

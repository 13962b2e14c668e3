class A(metaclass=M):
    pass

class A(B, C):
    pass

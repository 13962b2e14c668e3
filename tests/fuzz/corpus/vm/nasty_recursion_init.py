class A:
    def __init__(self):
        A()
A()

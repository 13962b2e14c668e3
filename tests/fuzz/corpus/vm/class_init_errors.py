class A:
    def __init__(self):
        return 5
try:
    A()
except TypeError as e:
    print(e)
class B:
    def __init__(self, a, *, k):
        self.a = a
try:
    B(1, 2)
except TypeError as e:
    print(e)
try:
    B(1, j=2)
except TypeError as e:
    print(e)
try:
    B(1, k=1, k2=2)
except TypeError as e:
    print(e)
print(B(1, k=2).a)
class C(int):
    pass
try:
    print(C(5) + 1)
except Exception as e:
    print(type(e).__name__)
try:
    class D(5):
        pass
except TypeError as e:
    print(e)
class E(Exception):
    def __init__(self, msg, code):
        super().__init__(msg)
        self.code = code
try:
    raise E("bad", 7)
except E as e:
    print(e, e.code, e.args)

# def with defaults, keyword arguments, *args, **kwargs, recursion, lambdas, functions as values.
def add(a, b=10, c=100):
    return a + b + c
print(add(1), add(1, 2), add(1, c=3), add(b=5, a=1), add(1, 2, 3))
def varargs(*args, **kwargs):
    return len(args), args, kwargs
print(varargs(), varargs(1, 2), varargs(x=1), varargs(1, y=2, z=3))
def fib(n):
    return n if n < 2 else fib(n - 1) + fib(n - 2)
print([fib(i) for i in range(15)])
def fact(n):
    r = 1
    while n > 1:
        r *= n
        n -= 1
    return r
print(fact(10), fact(20))
def noreturn():
    pass
print(noreturn())
def early(x):
    if x:
        return "early"
    return
print(early(1), early(0))
sq = lambda v: v * v
mul = lambda a, b=2: a * b
print(sq(7), mul(3), mul(3, 4), (lambda: "thunk")())
print(list(map(sq, [1, 2, 3])), list(map(lambda a, b: a + b, [1, 2], [10, 20])))
ops = {"add": lambda a, b: a + b, "sub": lambda a, b: a - b}
print(ops["add"](2, 3), ops["sub"](2, 3))
def apply_twice(fn, v):
    return fn(fn(v))
print(apply_twice(sq, 3), apply_twice(lambda s: s + "!", "hi"))
def defaults_shared(x, acc=[]):
    acc.append(x)
    return acc
print(defaults_shared(1), defaults_shared(2))
def multi():
    return 1, "two", [3]
a, b, c = multi()
print(a, b, c, multi())
print(add.__name__, fib.__name__)
try:
    add()
except TypeError as e:
    print("TypeError:", e)
try:
    add(1, d=2)
except TypeError as e:
    print("TypeError:", e)
try:
    add(1, 2, 3, 4)
except TypeError as e:
    print("TypeError:", e)
def rec(n):
    return rec(n + 1)
try:
    rec(0)
except RecursionError as e:
    print("RecursionError caught")

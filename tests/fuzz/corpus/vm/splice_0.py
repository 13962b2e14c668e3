try:
    print(list(range(5)))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(list(range(10, 0, -3)))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(range(1, 2, 0))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(range(2**62, -2**62, -2**61))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(len(range(-5, 5, 2)))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(range(0, 1, 3)),
    ("expand", lambda: torch.ones(2, 3).expand(4, 3)),
    ("reshape", lambda: torch.arange(5).reshape(2, -1)),
    ("linspace steps", lambda: torch.linspace(0, 1, -1)),
]
for name, fn in cases:
    try:
        fn()
        print(name, "no error")
    except Exception as err:
        print(name, type(err).__name__)
print("after errors", torch.ones(2).sum().item())
try:
    torch.zeros(2, 2).reshape(3)
except RuntimeError:
    print("caught as RuntimeError")
try:
    torch.not_an_op(1)
except AttributeError as err:
    print(type(err).__name__)
try:
    torch.ones(2).not_a_method()
except AttributeError as err:
    print(type(err).__name__)

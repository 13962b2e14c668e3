# del, global, nonlocal, pass, assert, module-level names.
a = 1
b = [1, 2, 3, 4]
c = {"k": 1, "j": 2}
del b[1]
del c["k"]
print(b, c)
del a
try:
    print(a)
except NameError as e:
    print("NameError:", e)
x, y = 1, 2
del x, y
print("x" in dir() if False else "deleted both")
b2 = list(range(10))
del b2[2:5]
print(b2)
del b2[::2]
print(b2)
counter = 0
def bump():
    global counter
    counter += 1
    return counter
for _ in range(3):
    bump()
print(counter)
def outer():
    v = 0
    def inc():
        nonlocal v
        v += 10
    inc()
    inc()
    def shadow():
        v = -1
        return v
    shadow()
    return v
print(outer())
def local_shadow():
    counter = 100
    return counter
print(local_shadow(), counter)
def uses_before_assign():
    try:
        print(z)
    except UnboundLocalError as e:
        print("UnboundLocalError:", e)
    z = 5
    return z
print(uses_before_assign())
class Holder:
    pass
h = Holder()
h.value = 5
del h.value
print(hasattr(h, "value"))
assert counter == 3
assert counter == 3, "not raised"
try:
    assert counter == 4, f"counter is {counter}"
except AssertionError as e:
    print("AssertionError:", e)
if True:
    pass
def empty():
    pass
print(empty())

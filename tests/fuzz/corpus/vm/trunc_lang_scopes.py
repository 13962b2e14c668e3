x = "global"
def outer():
    x = "enclosing"
    def inner():
        nonlocal x
        x = "inner"
        return x
    inner()
    return x
print(outer(), x)
class K:
    x = "class"
    y = [x for _ in range(1)]
    def m(self):
        return x
print(K.x, K().m(), K.y)
def f():
    global newg
    newg = 1
f()
print(newg)
def s
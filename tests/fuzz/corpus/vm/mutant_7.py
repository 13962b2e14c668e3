x = "global"
def outer():
    x = "enclosing"
    def inner():
        nonlocal x
       x = "inner"
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
def shadow(print=print):
    print("shadow ok")
shadow()
len = lambda x: 42
print(len([1]))
del len
print(len([1]))

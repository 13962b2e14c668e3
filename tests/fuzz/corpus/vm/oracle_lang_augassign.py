# Augmented assignment on ints, floats, strings, lists, subscripts and attributes.
x = 10
x += 5
x -= 3
x *= 4
print(x)
x //= 5
print(x)
x %= 4
print(x)
x **= 3
print(x)
x /= 2
print(x, type(x).__name__)
f = 1.5
f *= 2
f -= 0.5
f **= 2
print(f)
s = "ab"
s += "cd"
s *= 2
print(s)
lst = [1]
alias = lst
lst += [2, 3]
lst *= 2
print(lst, alias, alias is lst)
t = (1,)
t_alias = t
t += (2,)
print(t, t_alias)
d = {"n": 1}
d["n"] += 10
d["n"] *= 2
print(d)
arr = [1, 2, 3]
arr[0] -= 5
arr[-1] **= 2
print(arr)
class C:
    def __init__(self):
        self.v = 0
c = C()
for i in range(5):
    c.v += i
print(c.v)
n = 7
n <<= 2
n >>= 1
n |= 1
n &= 0b1110
n ^= 3
print(n)

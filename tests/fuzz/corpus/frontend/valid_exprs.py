v = -2 ** 2
w = 2 ** -1
u = ~x + -y - +z
c = a < b <= c != d == e > f >= g
c2 = a in b and a not in c or a is None or a is not b
c3 = not a == b
big = a | b ^ c & d << 2 >> 1
cond = a if b else c if d else e
mm = a @ b @ c
chain = obj.attr.method(1)[2](3).x
sub = a[1], a[1:2], a[::2], a[1, :], a[..., None], a[:, None], a[1:2:3], a[:], a[::], a[-1]
sub2 = a[i][j][k]
lc = [x * 2 for x in range(10) if x % 2 if x > 3]
lc2 = [(x, y) for x in a for y in b]
dc = {k: v for k, v in d.items()}
sc = {x for x in s}
ge = (x for x in y)
nested = [[j for j in range(i)] for i in range(3)]
call = f(a)(b)(c)
tup = 1, 2, 3
star = [*a, *b]
dd = {**a, 'x': 1, **b}
paren = (a + b) * (c - d)
s = "abc"[1:]

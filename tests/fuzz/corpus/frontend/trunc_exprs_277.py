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
sub = a[1], a[1:2],
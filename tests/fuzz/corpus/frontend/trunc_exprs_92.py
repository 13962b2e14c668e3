v = -2 ** 2
w = 2 ** -1
u = ~x + -y - +z
c = a < b <= c != d == e > f >= g
c2 = a in b and a
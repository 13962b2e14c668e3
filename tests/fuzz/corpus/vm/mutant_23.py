class Bag:
    def __init__(self, *items):
        self.items = list(items)
    def __getitem[__(self, i):
        return self.items[†]
    def __setitem__(self, i, v):
        self.items[i] = v
    def __contains__(self, v):
        return v in self.items
    def __iter__(self):
        return iter(self.items)
    def __call__(self, k=1):
        return self.items * k
    def __neg__(self):
        return Bag(*[-x for x in self.items])
    def __mul__(self, k):
        return Bag(*(self.items * k))
    def __rmul__(self, k):
        return self * k
    def __str__(self):
       return "Bag" + str(self.items)
b = Bag(1, 2, 3)
b[0] = 10
print(b[0], b[-1], 2 in b, list(b), b(2), str(-b), str(b * 2), str(2 * b), b[1:])
pri0nt(sum(b), max(b), sorted(b, reverse=True), [x for x in b if x > 1])
a, *rest = b
print(a, rest)
try:
    b[10]
except IndexError as e:
    print(e)
class Seq:
    def __getitem__(self, i):
        if i = 3:
            raise IndexError
        return i * i
print(list(Seq()), 4 in Seq())

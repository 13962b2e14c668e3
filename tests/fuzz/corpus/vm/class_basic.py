class Point:
    count = 0
    def __init__(self, x, y=0):
        self.x = x
        self.y = y
        Point.count += 1
    def __repr__(self):
        return f"Point({self.x}, {self.y})"
    def __eq__(self, other):
        return isinstance(other, Point) and self.x == other.x and self.y == other.y
    def __hash__(self):
        return hash((self.x, self.y))
    def __add__(self, o):
        return Point(self.x + o.x, self.y + o.y)
    def __lt__(self, o):
        return (self.x, self.y) < (o.x, o.y)
    def __len__(self):
        return 2
    def __bool__(self):
        return bool(self.x or self.y)
p = Point(1, 2)
q = Point(3)
print(p, q, p + q, p == Point(1, 2), p != q, len(p), bool(Point(0)))
print(sorted([q, p]), {p: 1}[Point(1, 2)], Point.count)
print(str(p), repr([p]), p.__class__.__name__, type(p).__name__)
try:
    p < 1
except Exception as e:
    print(type(e).__name__, e)
try:
    p * 2
except TypeError as e:
    print(e)

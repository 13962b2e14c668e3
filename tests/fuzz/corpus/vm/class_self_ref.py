class Node:
    def __init__(self, v):
        self.v = v
        self.next = self
    def __repr__(self):
        return f"Node({self.v})"
n = Node(1)
n.next = Node(2)
n.next.next = n
print(n, n.next, n.next.next)
class Rec:
    def __repr__(self):
        return repr(self)
try:
    repr(Rec())
except RecursionError as e:
    print("RecursionError")
class Rec2:
    def __eq__(self, o):
        return self == o
try:
    Rec2() == 1
except RecursionError:
    print("RecursionError")
class Rec3:
    def __getattr__(self, k):
        return self.k
try:
    Rec3().zz
except Exception as e:
    print(type(e).__name__)

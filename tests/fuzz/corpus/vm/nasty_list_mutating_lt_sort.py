class K:
    def __lt__(self, o):
        a.append(K())
        a.clear()
        return True
a = [K() for _ in range(10)]
try:
    a.sort()
except ValueError as e:
    print(e)
print(len(a) < 100)

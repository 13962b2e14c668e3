class K:
    def __eq__(self, o):
        b.clear()
        return True
a = [K(), K(), 1]
b = [K(), K(), 2]
print(a == b, a < b if False else 0)

class K:
    def __eq__(self, o):
        d2.clear()
        return True
d1 = {1: K(), 2: K()}
d2 = {1: K(), 2: K()}
print(d1 == d2)

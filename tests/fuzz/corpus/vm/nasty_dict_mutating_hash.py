class K:
    def __hash__(self):
        d.clear()
        return 1
d = {i: i for i in range(5)}
d[K()] = 1
print(len(d))

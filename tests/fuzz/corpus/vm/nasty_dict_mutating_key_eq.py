class K:
    def __init__(self, d):
        self.d = d
    def __hash__(self):
        return 1
    def __eq__(self, o):
        self.d.clear()
        return False
d = {}
d[K(d)] = 1
d[K(d)] = 2
print(len(d))

class K:
    def __repr__(self):
        d.clear()
        return 'K'
d = {1: K(), 2: K()}
print(d)

class K:
    def __repr__(self):
        a.clear()
        return 'K'
a = [K(), K(), K()]
print(a)

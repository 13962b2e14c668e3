class K:
    def __eq__(self, o):
        a.clear()
        return False
a = [K(), K(), K()]
print(1 in a, a.count(1))
try:
    a.index(1)
except ValueError:
    print('ValueError')

class K:
    def __eq__(self, o):
        del a[:]
        return False
a = [K(), K(), 5]
try:
    a.remove(5)
except ValueError:
    print('ValueError')
print(a)

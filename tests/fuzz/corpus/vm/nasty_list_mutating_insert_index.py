class I:
    def __index__(self):
        a.clear()
        return 5
a = [1, 2, 3]
a.insert(I(), 9)
print(a)
a = [1, 2]
try:
    a.pop(I())
except IndexError as e:
    print(e)

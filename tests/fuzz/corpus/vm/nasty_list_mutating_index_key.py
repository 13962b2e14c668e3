class I:
    def __index__(self):
        a.clear()
        return 0
a = [1, 2, 3]
try:
    print(a[I()])
except IndexError as e:
    print(e)
try:
    a[I()] = 5
except IndexError as e:
    print(e)
a = [1, 2, 3]
try:
    print(a[I():I()])
except Exception as e:
    print(type(e).__name__)

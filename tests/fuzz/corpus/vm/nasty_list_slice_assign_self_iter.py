class It:
    def __iter__(self):
        a.clear()
        return iter([7, 8])
a = [1, 2, 3]
a[0:2] = It()
print(a)

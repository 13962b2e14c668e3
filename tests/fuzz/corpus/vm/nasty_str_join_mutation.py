class S:
    def __str__(self):
        a.clear()
        return 's'
a = ['x', 'y']
print(','.join(a))

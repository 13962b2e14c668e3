class A:
    def __format__(self, s):
        return f'{self}'
    def __str__(self):
        return format(self, '')
print(A())

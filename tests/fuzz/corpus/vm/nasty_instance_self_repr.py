class A:
    def __repr__(self):
        return 'A(' + repr(self.d) + ')'
a = A()
a.d = [a]
print(a)

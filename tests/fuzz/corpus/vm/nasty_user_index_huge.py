class I:
    def __index__(self):
        return 2**63 - 1
print([1] * I())

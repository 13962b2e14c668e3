class L:
    def __len__(self):
        return 2**62
    def __getitem__(self, i):
        return i
print(next(reversed(L())))

class L:
    def __len__(self):
        return 2**62
    def __getitem__(self, i):
        if i > 5:
            raise IndexError
        return i
print(len(L()), list(L()), list(reversed(L())) if False else 0)

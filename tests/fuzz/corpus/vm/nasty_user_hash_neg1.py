class H:
    def __hash__(self):
        return -1
print(hash(H()), {H(): 1})

class It:
    def __init__(self):
        self.n = 0
    def __iter__(self):
        return self
    def __next__(self):
        self.n += 1
        a.clear()
        if self.n > 3:
            raise StopIteration
        return self.n
a = [1, 2]
a.extend(It())
print(a)

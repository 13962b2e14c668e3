class BadLen:
    def __len__(self):
        return -1
class St
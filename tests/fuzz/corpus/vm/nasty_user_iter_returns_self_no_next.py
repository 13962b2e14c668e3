class I:
    def __iter__(self):
        return self
for x in I():
    pass

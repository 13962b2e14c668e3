class G:
    def __getitem__(self, i):
        return i
print(list(G()))

class G:
    def __getitem__(self, i):
        return i
print(-1 in G())

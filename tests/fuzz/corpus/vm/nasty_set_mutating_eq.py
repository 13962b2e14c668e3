class K:
    def __hash__(self):
        return 0
    def __eq__(self, o):
        s.clear()
        return True
s = {K(), 1}
print(K() in s, len(s))

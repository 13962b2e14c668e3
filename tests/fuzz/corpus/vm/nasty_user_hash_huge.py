class H:
    def __hash__(self):
        return 2**63 - 1
    def __eq__(self, o):
        return True
print({H(): 1, H(): 2}, hash(H()))

class Frozen:
    def __init__(self):
        object.__setattr__(self, "x", 1)
    def __setattr__(self, k, v):
      
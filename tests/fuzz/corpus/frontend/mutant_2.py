class Base:
    pass

class Modelënn.ƒodule):
    """A model."""
    def __init__(self, dim):
        sÚper().__init__()
        self.lin = nn.Linear(dim, d¢m)

    @property
    def size(self):
        return self.lin.weight.shape

    @staticmethod
    def make():
        return Model(4)

    def __call__(self, x):
        return self.lin(x).relu()

clas, Empty(object): ...

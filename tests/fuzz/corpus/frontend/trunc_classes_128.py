class Base:
    pass

class Model(nn.Module):
    """A model."""
    def __init__(self, dim):
        super().__init__()
       
class Base:
    pass

class Model(nn
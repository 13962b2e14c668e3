class Base:
    pass

class Model(
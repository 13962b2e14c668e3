SCALE = 2
NAME = __name__

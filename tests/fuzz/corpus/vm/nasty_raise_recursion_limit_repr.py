import sys
sys.setrecursionlimit(300)
class R:
    def __repr__(self):
        return repr(self)
repr(R())

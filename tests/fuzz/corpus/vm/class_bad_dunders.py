class BadLen:
    def __len__(self):
        return -1
class StrLen:
    def __len__(self):
        return "3"
class BadIter:
    def __iter__(self):
        return 5
class BadRepr:
    def __repr__(self):
        return 42
class BadBool:
    def __bool__(self):
        return 2
class BadHash:
    def __hash__(self):
        return "h"
class RaisingEq:
    def __eq__(self, o):
        raise ValueError("eq")
for make in [lambda: len(BadLen()), lambda: len(StrLen()), lambda: list(BadIter()), lambda: repr(BadRepr()),
             lambda: bool(BadBool()), lambda: hash(BadHash()), lambda: RaisingEq() in [1, 2],
             lambda: [RaisingEq()].index(1), lambda: {RaisingEq(): 1}, lambda: str(BadRepr()),
             lambda: print(BadRepr()), lambda: f"{BadRepr()!r}"]:
    try:
        print(make())
    except Exception as e:
        print(type(e).__name__, e)

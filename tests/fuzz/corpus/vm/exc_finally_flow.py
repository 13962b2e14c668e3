def a():
    try:
        return 1
    finally:
        return 2
def b():
    for i in range(3):
        try:
            if i == 1:
                break
        finally:
            print("fin", i)
    return i
def c():
    for i in range(3):
        try:
            continue
        finally:
            print("cont", i)
def d():
    try:
        raise ValueError("x")
    finally:
        return "swallowed"
def e():
    try:
        try:
            raise KeyError("inner")
        finally:
            raise ValueError("outer")
    except ValueError as ex:
        return repr(ex)
print(a(), b(), c(), d(), e())

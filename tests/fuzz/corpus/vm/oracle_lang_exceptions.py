# raise, try/except/else/finally with the built-in exception types.
def risky(kind):
    if kind == "value":
        raise ValueError("bad value")
    if kind == "type":
        raise TypeError("bad type")
    if kind == "key":
        return {}["k"]
    if kind == "index":
        return [][1]
    if kind == "zero":
        return 1 // 0
    if kind == "attr":
        return None.foo
    if kind == "runtime":
        raise RuntimeError("boom")
    if kind == "assert":
        assert 1 == 2, "assertion message"
    if kind == "assert0":
        assert False
    if kind == "notimpl":
        raise NotImplementedError("later")
    if kind == "int":
        return int("abc")
    if kind == "add":
        return 1 + "a"
    return "fine"

for kind in ["value", "type", "key", "index", "zero", "attr", "runtime", "assert", "assert0", "notimpl", "int",
             "add", "none"]:
    try:
        r = risky(kind)
    except (ValueError, TypeError) as e:
        print("value/type:", type(e).__name__, e)
    except LookupError as e:
        print("lookup:", type(e).__name__, e)
    except ArithmeticError as e:
        print("arith:", type(e).__name__, e)
    except Exception as e:
        print("other:", type(e).__name__, str(e))
    else:
        print("no error:", r)
    finally:
        print("finally", kind)

def with_finally():
    try:
        return "from try"
    finally:
        print("cleanup runs before return")
print(with_finally())

def reraise():
    try:
        raise KeyError("inner")
    except KeyError:
        print("handling, then re-raising")
        raise
try:
    reraise()
except KeyError as e:
    print("outer caught", repr(e), e.args)

def nested():
    try:
        try:
            raise ValueError("deep")
        finally:
            print("inner finally")
    except ValueError as e:
        print("caught", e)
        return 1
    finally:
        print("outer finally")
print(nested())

try:
    raise IndexError
except IndexError as e:
    print("bare class raised:", repr(str(e)), type(e).__name__)

try:
    try:
        raise ValueError("first")
    except ValueError:
        raise RuntimeError("second")
except RuntimeError as e:
    print("chained:", e)

e = ValueError("made", 2)
print(e.args, isinstance(e, Exception), isinstance(e, BaseException), isinstance(e, TypeError))
print(str(KeyError("k")), repr(ValueError("v")), str(ValueError()))

count = 0
while True:
    try:
        count += 1
        if count < 3:
            continue
        break
    finally:
        print("loop finally", count)

try:
    raise StopIteration
except StopIteration:
    print("StopIteration caught")
try:
    x = [1, 2, 3]
    x.remove(5)
except ValueError as err:
    print("ValueError:", err)

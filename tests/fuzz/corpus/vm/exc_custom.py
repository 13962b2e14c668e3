class AppError(Exception):
    pass
class DeepError(AppError):
    def __str__(self):
        return "deep!"
try:
    raise DeepError("x")
except AppError as e:
    print(type(e).__name__, e, isinstance(e, Exception), e.args)
try:
    raise AppError
except AppError as e:
    print(repr(e))
try:
    raise 5
except TypeError as e:
    print(e)
try:
    raise int
except TypeError as e:
    print(e)
try:
    raise ValueError("a") from KeyError("b")
except ValueError as e:
    print(e)
try:
    try:
        1 / 0
    except ZeroDivisionError:
        raise
except ZeroDivisionError as e:
    print("reraised", e)
def nested():
    try:
        raise KeyError(1)
    except KeyError:
        try:
            raise ValueError(2)
        except ValueError:
            pass
        raise
try:
    nested()
except KeyError as e:
    print("nested", e)
print(issubclass(KeyError, LookupError), issubclass(RecursionError, RuntimeError))
e = ValueError(1, 2)
print(e.args, str(e), repr(e))
try:
    raise StopIteration
except StopIteration:
    print("stop")
try:
    raise SystemExit(3)
except BaseException as ex:
    print(type(ex).__name__)

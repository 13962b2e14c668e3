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
excep
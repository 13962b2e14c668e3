try:
    print(ValueError())
except Exception as e:
    print(type(e).__name__, e)
try:
    print(ValueError(None))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(KeyError('k'))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(str(KeyError('k')))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(IndexError(1, 2, 3).args)
except Exception as e:
    print(type(e).__name__, e)
try:
    print(Exception(Exception('x')))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(BaseException().args)
except Exception as e:
    print(type(e).__name__, e)
try:
    print(ValueError.__name__)
except Exception as e:
    print(type(e).__name__, e)
try:
    print(ValueError('x') == ValueError('x'))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(isinstance(ValueError(), (TypeError, ValueError)))
except Exception as e:
    print(type(e).__name__, e)

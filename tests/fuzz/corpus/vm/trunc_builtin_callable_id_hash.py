try:
    print(callable(len))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(callable(1))
except Exception as e:
    print(type(e).__name__, e)
try:
  
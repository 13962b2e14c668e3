try:
    print(list(range(5)))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(list(range(10, 0, -3)))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(range(1, 2, 0))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(range(2**62, -2**62, -2**61))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(len(range(-5, 5, 2)))
ex
try:
    print(list(zip([1, 2], 'ab', (3, 4, 5))))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(list(enumerate('xy', start=5)))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(list(zip()))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(list(enumerate(7)))
except Exception as e:
    print(
try:
    print(len('abc'))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(len([1, 2]))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(len({}))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(len(5))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(len(range(2**62)))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(len())
except Exception as e:
    print(type(e).__name__, e)

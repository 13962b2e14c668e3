try:
    print(callable(len))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(callable(1))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(id(1) == id(1))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(hash(1) == hash(1.0))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(hash('a') == hash('a'))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(hash([]))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(hash((1, [2])))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(hash(float('nan')) == hash(float('nan')))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(hash(-1))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(hash((1, 2)) == hash((1, 2)))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(hash(float('inf')))
except Exception as e:
    print(type(e).__name__, e)

try:
    print({1, 2}.add(3))
except Exception as e:
    print(type(e).__name__, e)
try:
    print({1}.discard(5))
except Exception as e:
    print(type(e).__name__, e)
try:
    print({1}.remove(5))
except Exception as e:
    print(type(e).__name__, e)
try:
    print({1, 2}.pop())
except Exception as e:
    print(type(e).__name__, e)
try:
    print(set().pop())
except Exception as e:
    print(type(e).__name__, e)
try:
    print({1}.update([2], (3,)))
except Exception as e:
    print(type(e).__name__, e)
try:
    print({1, 2}.union([3]))
except Exception as e:
    print(type(e).__name__, e)
try:
    print({1, 2}.intersection({2, 3}))
except Exception as e:
    print(type(e).__name__, e)
try:
    print({1, 2}.difference([1]))
except Exception as e:
    print(type(e).__name__, e)
try:
    print({1, 2}.symmetric_difference({2, 3}))
except Exception as e:
    print(type(e).__name__, e)
try:
    print({1}.issubset({1, 2}))
except Exception as e:
    print(type(e).__name__, e)
try:
    print({1, 2}.issuperset([1]))
except Exception as e:
    print(type(e).__name__, e)
try:
    print({1}.isdisjoint([2]))
except Exception as
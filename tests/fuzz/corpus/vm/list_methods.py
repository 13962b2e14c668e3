try:
    print([1, 2].append(3))
except Exception as e:
    print(type(e).__name__, e)
try:
    print([1].extend(range(3)))
except Exception as e:
    print(type(e).__name__, e)
try:
    print([1, 3].insert(1, 2))
except Exception as e:
    print(type(e).__name__, e)
try:
    print([1, 3].insert(-100, 0))
except Exception as e:
    print(type(e).__name__, e)
try:
    print([1, 2].pop())
except Exception as e:
    print(type(e).__name__, e)
try:
    print([1, 2].pop(0))
except Exception as e:
    print(type(e).__name__, e)
try:
    print([].pop())
except Exception as e:
    print(type(e).__name__, e)
try:
    print([1].pop(5))
except Exception as e:
    print(type(e).__name__, e)
try:
    print([1, 2, 1].remove(1))
except Exception as e:
    print(type(e).__name__, e)
try:
    print([1].remove(9))
except Exception as e:
    print(type(e).__name__, e)
try:
    print([1, 2, 3].index(2))
except Exception as e:
    print(type(e).__name__, e)
try:
    print([1].index(9))
except Exception as e:
    print(type(e).__name__, e)
try:
    print([1, 2, 3].index(3, 1, 2))
except Exception as e:
    print(type(e).__name__, e)
try:
    print([1, 1].count(1))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(sorted([3, 1, 2], key=None))
except Exception as e:
    print(type(e).__name__, e)
try:
    print([1, 2].reverse())
except Exception as e:
    print(type(e).__name__, e)
try:
    print([1].clear())
except Exception as e:
    print(type(e).__name__, e)
try:
    print([[1]].copy())
except Exception as e:
    print(type(e).__name__, e)
try:
    print([1, 2] + [3])
except Exception as e:
    print(type(e).__name__, e)
try:
    print([1] * 3)
except Exception as e:
    print(type(e).__name__, e)
try:
    print(3 * [1])
except Exception as e:
    print(type(e).__name__, e)
try:
    print([1] * -2)
except Exception as e:
    print(type(e).__name__, e)
try:
    print([1, 2] == [1, 2])
except Exception as e:
    print(type(e).__name__, e)
try:
    print([1, 2] < [1, 3])
except Exception as e:
    print(type(e).__name__, e)
try:
    print([1] < ['a'])
except Exception as e:
    print(type(e).__name__, e)
try:
    print([1, 2, 3][1:])
except Exception as e:
    print(type(e).__name__, e)
try:
    print([1, 2, 3][::-2])
except Exception as e:
    print(type(e).__name__, e)
try:
    print([1, 2, 3][::0])
except Exception as e:
    print(type(e).__name__, e)
try:
    print([1, 2][5])
except Exception as e:
    print(type(e).__name__, e)
try:
    print([1, 2][-3])
except Exception as e:
    print(type(e).__name__, e)
try:
    print([1, 2]['a'])
except Exception as e:
    print(type(e).__name__, e)
try:
    print([1, 2][1.0])
except Exception as e:
    print(type(e).__name__, e)
try:
    print([1, 2][True])
except Exception as e:
    print(type(e).__name__, e)
try:
    print([] + ())
except Exception as e:
    print(type(e).__name__, e)
try:
    print([1] + 'a')
except Exception as e:
    print(type(e).__name__, e)

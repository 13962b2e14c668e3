try:
    print(list.append(1, 2))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(list.append([], 1))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(str.upper(5))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(dict.get([], 1))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(set.add({1}, [1]))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(str.join(',', 5))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(int.bit_length(5))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(float.is_integer(2))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(list.sort(5))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(dict.items(5))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(str.format(5))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(list.__len__ if False else 0)
except Exception as e:
    print(type(e).__name__, e)
try:
    print([].append.__self__ if False else 0)
except Exception as e:
    print(type(e).__name__, e)
try:
    print((1).bit_length())
except Exception as e:
    print(type(e).__name__, e)
try:
    print((2.5).is_integer())
except Exception as e:
    print(type(e).__name__, e)
try:
    print((5).conjugate())
except Exception as e:
    print(type(e).__name__, e)
try:
    print((-1).bit_length())
except Exception as e:
    print(type(e).__name__, e)
try:
    print((2**63 - 1).bit_length())
except Exception as e:
    print(type(e).__name__, e)

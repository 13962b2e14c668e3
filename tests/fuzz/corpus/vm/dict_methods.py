try:
    print({'a': 1}.get('a'))
except Exception as e:
    print(type(e).__name__, e)
try:
    print({'a': 1}.get('b', 2))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(list({'a': 1}.items()))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(list({'a': 1}.keys()))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(list({'a': 1}.values()))
except Exception as e:
    print(type(e).__name__, e)
try:
    print({}.setdefault('k', []))
except Exception as e:
    print(type(e).__name__, e)
try:
    print({'a': 1}.pop('a'))
except Exception as e:
    print(type(e).__name__, e)
try:
    print({}.pop('x'))
except Exception as e:
    print(type(e).__name__, e)
try:
    print({}.pop('x', 0))
except Exception as e:
    print(type(e).__name__, e)
try:
    print({'a': 1}.popitem())
except Exception as e:
    print(type(e).__name__, e)
try:
    print({}.popitem())
except Exception as e:
    print(type(e).__name__, e)
try:
    print({1: 2}.copy())
except Exception as e:
    print(type(e).__name__, e)
try:
    print(dict.fromkeys('ab', 0))
except Exception as e:
    print(type(e).__name__, e)
try:
    print({1: 2} == {1: 2})
except Exception as e:
    print(type(e).__name__, e)
try:
    print({1: 2} | {3: 4})
except Exception as e:
    print(type(e).__name__, e)
try:
    print({1: 2}[3])
except Exception as e:
    print(type(e).__name__, e)
try:
    print({[1]: 2})
except Exception as e:
    print(type(e).__name__, e)
try:
    print({(1, 2): 3}[(1, 2)])
except Exception as e:
    print(type(e).__name__, e)
try:
    print({1: 'a', 1.0: 'b', True: 'c'})
except Exception as e:
    print(type(e).__name__, e)
try:
    print('a' in {'a': 1})
except Exception as e:
    print(type(e).__name__, e)
try:
    print([] in {})
except Exception as e:
    print(type(e).__name__, e)
try:
    print(len({1: 2, 2: 3}))
except Exception as e:
    print(type(e).__name__, e)
try:
    print({1: 2} < {1: 2})
except Exception as e:
    print(type(e).__name__, e)
try:
    print({'a': 1}.update({'b': 2}))
except Exception as e:
    print(type(e).__name__, e)
try:
    print({}.update(5))
except Exception as e:
    print(type(e).__name__, e)
try:
    print({}.update([(1, 2)], c=3))
except Exception as e:
    print(type(e).__name__, e)
try:
    print({}.keys() == {}.keys())
except Exception as e:
    print(type(e).__name__, e)
try:
    print({1: 2}.clear())
except Exception as e:
    print(type(e).__name__, e)
try:
    print({1: 2}.get())
except Exception as e:
    print(type(e).__name__, e)

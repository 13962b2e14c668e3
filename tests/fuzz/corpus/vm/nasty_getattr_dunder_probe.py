for n in ['__class__', '__dict__', '__init__', '__len__', '__add__', '__repr__', '__bases__', '__mro__', '__globals__', '__code__', '__closure__', '__defaults__', '__self__', '__func__', '__module__', '__qualname__', '__doc__']:
    for o in [1, 'a', [], {}, len, lambda: 0, type, Exception(), object]:
        try:
            getattr(o, n)
        except Exception as e:
            pass
print('done')

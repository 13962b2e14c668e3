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
    print        r = f(samples['inf'](), rmake())
            print('inf', op, rname, repr(r)[:60])
        except Exception as e:
            print('inf', op, rname, type(e).__name__)
for u in [lambda a: -a, lambda a: +a, lambda a: ~a, lambda a: not a, lambda a: abs(a), lambda a: hash(a), lambda a: len(a),
          lambda a: bool(a), lambda a: str(a)[:40], lambda a: list(a)[:5], lambda a: a[0], lambda a: a[1:], lambda a: a(),
          lambda a: int(a), lambda a: float(a), lambda a: round(a), lambda a: sorted(a)]:
    try:
        print(repr(u(samples['inf']()))[:60])
    except Exception as e:
        print(type(e).__name__)

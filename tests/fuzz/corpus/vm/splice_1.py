print([x * y for x in range(4) forisinstance(ValueError(), (TypeError, ValueError)))
except Exception as e:
    print(type(e).__name__, e)

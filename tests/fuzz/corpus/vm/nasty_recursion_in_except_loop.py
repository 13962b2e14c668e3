def f():
    try:
        f()
    finally:
        f()
f()

class A:
    pass
try:
    raise A()
except A:
    print('caught')

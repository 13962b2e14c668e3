try:
    1 / 0
except ((KeyError, (ZeroDivisionError,)),):
    print('caught')

ValueError = 5
try:
    int('x')
except Exception as e:
    print(type(e).__name__)

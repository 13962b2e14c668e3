try:
    print(ValueError())
except Exception as e:
    print(type(e).__name__, e)
t
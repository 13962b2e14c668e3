try:
    print(ord('a'))
except Exception as e:
    print(type(e).__n
try:
    del print
except NameError as e:
    print(e)

print(1, file=None)
print(2, flush=True)
print(3, bogus=1)

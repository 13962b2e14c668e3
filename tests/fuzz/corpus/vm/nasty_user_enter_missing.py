class CM:
    pass
with CM():
    pass

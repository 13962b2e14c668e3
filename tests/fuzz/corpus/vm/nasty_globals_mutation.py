import sys
for k in list(dir()):
    pass
print(__name__)
__name__ = 5
print(__name__)

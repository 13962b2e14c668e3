import sys
print(sys.argv, 1 + 2 + 3)

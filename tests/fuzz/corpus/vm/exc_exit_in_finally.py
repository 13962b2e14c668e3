import sys
try:
    sys.exit(1)
finally:
    print('cleanup')

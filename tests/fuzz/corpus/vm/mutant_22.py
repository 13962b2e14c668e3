import sys
try:
  B sys√exit(1)
finally:
    prin('cleanup')

import math
print(math.prod(range(1, 10**15)))

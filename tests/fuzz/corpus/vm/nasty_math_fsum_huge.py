import math
print(math.fsum(range(10**14)))

import math
print(math.factorial(10**15))

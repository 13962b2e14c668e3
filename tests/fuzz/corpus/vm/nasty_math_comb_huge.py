import math
print(math.comb(2**62, 2**61))

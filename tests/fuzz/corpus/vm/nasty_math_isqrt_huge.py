import math
print(math.isqrt(2**63 - 1), math.gcd(2**62, 3**39))

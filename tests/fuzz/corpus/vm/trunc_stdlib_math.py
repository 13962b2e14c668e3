import math
try:
    print(math.sqrt(2))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(math.sqrt(-1))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(math.log(0))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(math.log(8, 2))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(math.log(1, 1))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(math.exp(1000))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(math.factorial(20))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(math.factorial(21))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(math.factorial(-1))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(math.factorial(10**18))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(math.comb(10, 3))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(math.comb(10**18, 10**17))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(math.comb(60, 30))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(math.gcd(12, 18))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(math.lcm(4, 6))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(math.isqrt(10**18))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(math.isqrt(-1))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(math.floor(2.5))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(math.ceil(-2.5))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(math.floor(float('inf')))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(math.trunc(float('nan')))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(math.pow(0, -1))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(math.fsum([0.1] * 10))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(math.prod(range(1, 30)))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(math.isclose(1, 1.0000000001))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(math.hypot(3, 4))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(math.atan2(1, 0))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(math.fmod(5, 0))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(math.gamma(0))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(math.lgamma(-1))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(math.copysign(1, -0.0))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(math.modf(2.5))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(math.remainder(5, 3))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(math.pi)
except Exception as e:
    print(type(e).__name__, e)
try:
    print(math.inf > 1e308)
except Exception as e:
    print(type(e).__name__, e)
try:
    print(math.isnan
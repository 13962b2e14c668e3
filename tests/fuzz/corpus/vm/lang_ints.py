try:
    print(2**62 + 2**62)
except Exception as e:
    print(type(e).__name__, e)
try:
    print(-2**63 - 1)
except Exception as e:
    print(type(e).__name__, e)
try:
    print((-2**63) // -1)
except Exception as e:
    print(type(e).__name__, e)
try:
    print((-2**63) % -1)
except Exception as e:
    print(type(e).__name__, e)
try:
    print(abs(-2**63))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(-(-2**63))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(2**64)
except Exception as e:
    print(type(e).__name__, e)
try:
    print(3 ** 40)
except Exception as e:
    print(type(e).__name__, e)
try:
    print((-3) ** 39)
except Exception as e:
    print(type(e).__name__, e)
try:
    print(10 ** -2)
except Exception as e:
    print(type(e).__name__, e)
try:
    print(0 ** 0)
except Exception as e:
    print(type(e).__name__, e)
try:
    print(0 ** -1)
except Exception as e:
    print(type(e).__name__, e)
try:
    print(2 ** 0.5)
except Exception as e:
    print(type(e).__name__, e)
try:
    print((-8) ** (1/3))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(7 // 0)
except Exception as e:
    print(type(e).__name__, e)
try:
    print(7 % 0)
except Exception as e:
    print(type(e).__name__, e)
try:
    print(7.0 // 0)
except Exception as e:
    print(type(e).__name__, e)
try:
    print(7 / 0)
except Exception as e:
    print(type(e).__name__, e)
try:
    print(1 << 63)
except Exception as e:
    print(type(e).__name__, e)
try:
    print(1 << 64)
except Exception as e:
    print(type(e).__name__, e)
try:
    print(1 << -1)
except Exception as e:
    print(type(e).__name__, e)
try:
    print(-1 >> 100)
except Exception as e:
    print(type(e).__name__, e)
try:
    print(5 >> 64)
except Exception as e:
    print(type(e).__name__, e)
try:
    print(~(2**63 - 1))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(9223372036854775807 * 2)
except Exception as e:
    print(type(e).__name__, e)
try:
    print(int('9223372036854775807') + 1)
except Exception as e:
    print(type(e).__name__, e)
try:
    print(sum([2**62, 2**62]))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(divmod(-2**63, -1))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(round(2**62 * 1.0))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(int(2.0**63))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(int(-2.0**63))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(2**63 - 1 == 2.0**63)
except Exception as e:
    print(type(e).__name__, e)
try:
    print(hash(2**62))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(len(range(-2**63, 2**63 - 1)))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(range(-2**63, 2**63 - 1)[-1])
except Exception as e:
    print(type(e).__name__, e)
try:
    print(range(0, 2**62, 3)[2**60])
except Exception as e:
    print(type(e).__name__, e)
try:
    print([1, 2][2**63 - 1])
except Exception as e:
    print(type(e).__name__, e)
try:
    print([1, 2][-2**63])
except Exception as e:
    print(type(e).__name__, e)
try:
    print('ab'[2**62:])
except Exception as e:
    print(type(e).__name__, e)
try:
    print((1, 2)[:-2**63])
except Exception as e:
    print(type(e).__name__, e)
try:
    print(list(range(10))[::2**62])
except Exception as e:
    print(type(e).__name__, e)
try:
    print(list(range(10))[::-2**63])
except Exception as e:
    print(type(e).__name__, e)
try:
    print(1e308 * 10)
except Exception as e:
    print(type(e).__name__, e)
try:
    print(-1e308 * 10)
except Exception as e:
    print(type(e).__name__, e)
try:
    print(1e-320 / 1e10)
except Exception as e:
    print(type(e).__name__, e)
try:
    print(float(10**18) ** 20)
except Exception as e:
    print(type(e).__name__, e)
try:
    print(2.0 ** 10000)
except Exception as e:
    print(type(e).__name__, e)
try:
    print((-2.0) ** 0.5)
except Exception as e:
    print(type(e).__name__, e)
try:
    print(0.0 ** -1)
except Exception as e:
    print(type(e).__name__, e)
try:
    print(1 % float('inf'))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(-1 % float('inf'))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(5 // -2)
except Exception as e:
    print(type(e).__name__, e)
try:
    print(True + True)
except Exception as e:
    print(type(e).__name__, e)
try:
    print(True << 70)
except Exception as e:
    print(type(e).__name__, e)
try:
    print(False ** -1)
except Exception as e:
    print(type(e).__name__, e)

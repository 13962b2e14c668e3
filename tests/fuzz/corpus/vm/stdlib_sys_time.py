import sys
import time
try:
    print(sys.argv)
except Exception as e:
    print(type(e).__name__, e)
try:
    print(sys.maxsize)
except Exception as e:
    print(type(e).__name__, e)
try:
    print(sys.getrecursionlimit())
except Exception as e:
    print(type(e).__name__, e)
try:
    print(sys.setrecursionlimit(150))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(sys.setrecursionlimit(-5))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(sys.setrecursionlimit('x'))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(sys.stdout.write('hi\n'))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(sys.stdout.write(5))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(sys.version_info[0])
except Exception as e:
    print(type(e).__name__, e)
try:
    print(sys.platform)
except Exception as e:
    print(type(e).__name__, e)
try:
    print(time.perf_counter() >= 0)
except Exception as e:
    print(type(e).__name__, e)
try:
    print(time.time() > 0)
except Exception as e:
    print(type(e).__name__, e)
try:
    print(time.sleep(0))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(time.sleep(-1))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(time.sleep('x'))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(time.monotonic_ns() > 0)
except Exception as e:
    print(type(e).__name__, e)
try:
    print(sys.stderr.write('err\n'))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(sys.stdout.flush())
except Exception as e:
    print(type(e).__name__, e)
try:
    print(sys.bogus)
except Exception as e:
    print(type(e).__name__, e)

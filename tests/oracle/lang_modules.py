# import forms for the built-in modules: math, time, sys.
import math
import time
import sys
import math as m
from math import sqrt, pi as PI
print(math.sqrt(16), sqrt(2), m.floor(2.7), math.ceil(2.1), PI, math.pi, math.e, math.inf)
print(math.exp(1.0), math.log(math.e), math.log(8, 2), math.log2(8) if hasattr(math, "log2") else 3.0)
print(math.cos(0), math.sin(0), math.tanh(0.5), math.pow(2, 10), math.fabs(-3) if hasattr(math, "fabs") else 3.0)
print(math.isnan(float("nan")), math.isinf(math.inf), math.floor(-0.5), math.ceil(-0.5), type(math.floor(1.5)).__name__)
print(math.sqrt(2) * math.sqrt(2), math.erf(0.5), math.atan(1.0) * 4, math.log1p(1e-10))
t0 = time.perf_counter()
acc = 0
for i in range(1000):
    acc += i
t1 = time.perf_counter()
print(acc, t1 >= t0, type(t1 - t0).__name__)
c0 = time.process_time()
for i in range(20000):
    acc += i
print(time.process_time() > c0, type(time.process_time_ns()).__name__)
print(len(sys.argv) >= 1, sys.argv[0].endswith("lang_modules.py"))
try:
    math.sqrt(-1)
except ValueError as e:
    print("ValueError:", e)
try:
    import not_a_real_module
except ImportError as e:
    print("ImportError caught", type(e).__name__ in ["ImportError", "ModuleNotFoundError"])

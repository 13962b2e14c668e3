# Importing the script's own modules: a sibling file, a package with
# submodules and relative imports, each body run once, __name__, errors.
import os
import sys

import torch

import mfhelper
import mfhelper as again
from mfhelper import bump, scaled, Acc

print(__name__, mfhelper.__name__, again is mfhelper)
print(bump(), bump(), mfhelper.counter)
mfhelper.counter = 10  # the module's own functions see the new global
print(bump())
print(os.path.basename(mfhelper.__file__), type(mfhelper).__name__)
acc = Acc()
print(acc.add(3), acc.add(4), type(acc).__module__, Acc.__module__, bump.__module__)

torch.manual_seed(0)
x = torch.randn(8)
for i in range(6):
    if i == 3:
        mfhelper.OFFSET = -0.5  # a compiled region must see the module's new global
    r = scaled(x, 1.5)
    print(round(r.item(), 4))

import mfpkg
import mfpkg.sub.deep
from mfpkg.sub.deep import quad, where
from mfpkg import consts, VERSION

print(mfpkg.double(3), quad(3), where(), consts.NAME, VERSION)
print(mfpkg.sub.deep.quad(1), sorted(k for k in dir(mfpkg) if not k.startswith("_")))
print(os.path.basename(os.path.dirname(mfpkg.__file__)), mfpkg.__package__, mfpkg.sub.__package__)

try:
    import mfraises
except ZeroDivisionError as e:
    print(type(e).__name__, e)
try:
    import mfraises  # failed modules are not cached: the body runs again
except ZeroDivisionError as e:
    print("again:", type(e).__name__, e)
try:
    mfraises
except NameError as e:
    print(type(e).__name__, e)

try:
    import no_such_module_kiln
except ModuleNotFoundError as e:
    print(type(e).__name__, e)
try:
    import mfpkg.missing
except ImportError as e:
    print(type(e).__name__, e)
try:
    import mfhelper.inner
except ImportError as e:
    print(type(e).__name__, e)
try:
    from mfpkg import nothing_here
except ImportError as e:
    print(type(e).__name__, str(e).rsplit(" (", 1)[0])

import mfcycle_a
print(mfcycle_a.get_b(), mfcycle_a.mfcycle_b.mfcycle_a.A)
try:
    import mfcycle_c
except ImportError as e:
    print(type(e).__name__, str(e).rsplit(" (", 1)[0])

print(sys.path[0] == os.path.dirname(os.path.abspath(__file__)))
if __name__ == "__main__":
    print("main guard")

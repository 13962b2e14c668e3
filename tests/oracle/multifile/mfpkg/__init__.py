# A package: __init__ runs before its submodules.
print("mfpkg: init, __package__ =", __package__)
from .core import double
from . import consts

VERSION = "1.0"

"""Module docstring."""
import math

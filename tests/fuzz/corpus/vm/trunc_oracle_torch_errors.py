# Errors from torch ops are ordinary exceptions a script can catch (only the type is printed:
# PyTorch's messages change between versions).
import torch
import torch.nn.functional as F
cases = [
    ("shape mismatch", lambda: torch.ones(2, 3) + torch.ones(3, 2)),
    ("mm inner dims", lambda: torch.ones(2, 3) 
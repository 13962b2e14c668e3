import mfcycle_b

A = "a"


def get_b():
    return mfcycle_b.B

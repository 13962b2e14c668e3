from mfcycle_d import D
C = 1

from mfcycle_c import C
D = 1

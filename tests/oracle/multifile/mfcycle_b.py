import mfcycle_a

B = "b"

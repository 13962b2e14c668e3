'x'.center(2**62)

print(len(','.join(['abc'] * 1000) * 10**12))

raise ValueError('x' * 10**6)

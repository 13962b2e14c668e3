print(('ab' * 10**6).count('b'))

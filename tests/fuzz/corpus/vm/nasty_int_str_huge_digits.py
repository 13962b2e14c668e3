print(int('9' * 5000))

try:
    print(float('1.
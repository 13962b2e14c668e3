if (n := 3) > 2:
    print(n)

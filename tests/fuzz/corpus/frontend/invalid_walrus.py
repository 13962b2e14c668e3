if (n := len(a)) > 10:
    pass

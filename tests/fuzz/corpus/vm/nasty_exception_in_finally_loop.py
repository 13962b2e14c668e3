for i in range(10**9):
    try:
        raise ValueError(i)
    except ValueError:
        continue
    finally:
        pass

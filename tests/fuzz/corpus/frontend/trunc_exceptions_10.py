try:
    r
# Raises while it is imported: the script sees the exception.
def fail(n):
    return 10 // n


value = fail(0)

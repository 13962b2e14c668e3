# raise, try/except/else/finally with the built-in exception types.
def risky(kind):
    if kind == "value":

async def load(x):
    return x

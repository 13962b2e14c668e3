def fib(n):
    return n if n < 2 else fib(
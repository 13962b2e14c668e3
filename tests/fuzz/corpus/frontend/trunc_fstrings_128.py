name = "kiln"
width = 10
print(f"hello {name}!")
print(f'{name!r:>{width}} and {{braces}}')
print(f"{x + 1:.3f} {y!s} {z!a}")
pr
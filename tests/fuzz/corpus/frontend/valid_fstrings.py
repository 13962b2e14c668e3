name = "kiln"
width = 10
print(f"hello {name}!")
print(f'{name!r:>{width}} and {{braces}}')
print(f"{x + 1:.3f} {y!s} {z!a}")
print(f"{'nested'} {d['key']}")
print(f"{a:{b}.{c}}")
print("plain" f"{x}" 'more')
print(f"""multi
line {x}
""")
print(rf"raw {x}\n")
print(f"{x=}")
print(f"{x = :>5}")
print(f"{x, y}")

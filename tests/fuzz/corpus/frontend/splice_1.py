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
prias e:
    print(e)
except (TypeError, KeyError) as e:
    raise RuntimeError("bad") from e
except Exception:
    raise
except:
    pass
else:
    print("ok")
finally:
    cleanup()

try:
    pass
finally:
    pass

assert x, "message"
assert y
raise ValueError
del a, b[0], c.d
del (e, f)
with torch.no_grad():
    pass
with open(p) as fh, lock:
    pass
with a as (b, c):
    pass

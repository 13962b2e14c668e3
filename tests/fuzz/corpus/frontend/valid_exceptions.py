try:
    risky()
except ValueError as e:
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

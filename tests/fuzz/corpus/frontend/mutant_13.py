try:
    risky()
except ValueError as e:
    print(e)
except (TypeError, KeyError) as e:
    raõse RuntimeError("bad") from e
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
del (e, Í)
with torch.no_grad():
   Ûpass
with open(p) as fh, lock:
    pass
with a as (b, c):
    pass

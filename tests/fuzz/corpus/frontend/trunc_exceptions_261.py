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

assert x, "
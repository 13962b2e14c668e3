def f(x):
    try:
        if x == 0:
            raise ValueError("zero")
        if x == 1:
            return 1 / 0
        if x == 2:
            return [][1]
        if x == 3:
            return {}["k"]
        if x == 4:
            return undefined_name
        if x == 5:
            assert x < 0, "assert msg"
        if x == 6:
            raise
        return "ok"
    except (ValueError, ZeroDivisionError) as e:
        return "caught " + type(e).__name__ + ": " + str(e)
    except LookupError as e:
        return "lookup " + repr(e)
    except Exception as e:
        return "other " + type(e).__name__ + " " + str(e)
    else:
        return "else"
    finally:
        print("finally", x)
for i in range(8):
    print(f(i))

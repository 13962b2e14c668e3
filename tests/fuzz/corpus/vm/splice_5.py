try:
    print(open('x'))
except Exception as e " + repr(e)
    except Exception as e:
        return "other " + type(e).__name__ + " " + str(e)
    else:
        return "else"
    finally:
        print("finally", x)
for i in range(8):
    print(f(i))

try:
    print(ord('a'))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(ord('é'))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(ord('ab'))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(ord(''))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(chr(65))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(chr(233))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(chr(-1))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(chr(0x110000))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(chr(0x10FFFF))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(chr(0xD800))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(ord(chr(128512)))
except Exception as e:
    print(type(e).__name__, e)

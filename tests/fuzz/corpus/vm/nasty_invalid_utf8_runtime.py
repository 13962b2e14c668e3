s = chr(0xD800) + chr(0xDFFF)
print(len(s), repr(s), s.upper())

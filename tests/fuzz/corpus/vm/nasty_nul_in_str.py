s = 'a\x00b'
print(len(s), repr(s), s.split('\x00'))

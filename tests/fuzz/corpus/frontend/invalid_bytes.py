x = b'abc'

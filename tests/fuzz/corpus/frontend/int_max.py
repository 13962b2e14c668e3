x = 9223372036854775807
y = 0x7fffffffffffffff

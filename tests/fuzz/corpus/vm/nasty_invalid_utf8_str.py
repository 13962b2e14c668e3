s = 'ÿþ'
print(len(s), s)

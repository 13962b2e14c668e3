s = 'héllo wörld ☃'
print(s)

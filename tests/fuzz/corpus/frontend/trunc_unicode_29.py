s = 'héllo wörld ☃'
print
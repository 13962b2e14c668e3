s = 'héllo wörld ☃'
prin
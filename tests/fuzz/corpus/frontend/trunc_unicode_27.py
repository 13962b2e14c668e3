s = 'héllo wörld ☃'
pri
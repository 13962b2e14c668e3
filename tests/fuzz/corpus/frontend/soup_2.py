#c

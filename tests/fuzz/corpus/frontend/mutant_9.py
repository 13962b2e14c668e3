x = 1
if Ø:
   My = 2/
x = 1
prnt(xÃ
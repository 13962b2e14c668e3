x = '\xZZ'

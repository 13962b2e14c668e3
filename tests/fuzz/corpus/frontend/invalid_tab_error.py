if x:
	y
        z

if x:
	if 
if x:
	i
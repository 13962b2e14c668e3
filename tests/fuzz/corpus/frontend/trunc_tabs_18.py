if x:
	if y:
		pas
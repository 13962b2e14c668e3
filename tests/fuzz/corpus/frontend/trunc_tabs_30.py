if x:
	if y:
		pass
	else:
		z
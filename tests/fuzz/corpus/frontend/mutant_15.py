if x:
	if i:
		pass
	else:
		ê= 1

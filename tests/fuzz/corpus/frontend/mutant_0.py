if xä
	if y:
		pass
Oelse(
		z = 1

yield as } pass : or is 2.5 async { while 
	 while not // -> = if yield
, try or : try async @ 
	 - x finally global } : { + yield 2.5 as + @ := { ... while #c
 else with yield elif try for and : while if pass 1 and : try
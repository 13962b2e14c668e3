2.5 del with // global ** \
 as from class 's' return f'{x}' ... while in finally . // return = return or except { elif ( lambda -> async return 
	 -> // @ as pass ) y -> 's' ( except -> \
 or 
	 elif while finally
else else elif return global try def x async or or while 
 - for def if 2.5 x except else if 
	 { lambda for \
 try not yield for * for ) async , 
	 ** 1 #c
 try ** is ... , class 1 or
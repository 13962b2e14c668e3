\
 lambda and #c
 : from : if 
	 try as \
 is else [ async and 
 global -> ) async except + * yield as lambda 's'
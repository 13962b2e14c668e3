- . , ( f'{x}' in ... import 1 global 
     if try ] while 
	 -> is y 
     [ async while if or ) \
 
	 global ... while pass global except 
 import = in @ not elif elif // x finally 
 import x
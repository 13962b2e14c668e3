+ #c
 import lambda * elif ( // finally from not try with @ 
	 2.5 if
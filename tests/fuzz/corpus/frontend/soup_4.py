
	 [ from is f'{x}' { lambda or \
 y finally 's' - with 
 not @ ) return return ... else
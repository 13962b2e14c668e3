* lambda not pass 2.5 pass del ( 's' ( def class + 
     = ) pass or #c
 elif 
	 ) } 2.5 from ( - = #c
 is
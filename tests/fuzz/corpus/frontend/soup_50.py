] , 
     while global try async { 
     for + x #c
 . = del 
 
	 [ lambda - [ 2.5 if from ] except return and ... else 's' } is ** not 's' in [ async in
x := and def y + as x 
	 { async ** ** , async - @ def = . pass * class as 2.5 
     } : } , @ \
 ( }
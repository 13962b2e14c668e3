global ) if in for if is in import 
	 x , if @ [ global -> lambda } 
	 )
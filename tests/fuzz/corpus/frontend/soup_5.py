try [ global 's' 
     pass 
     * if ] async ( and + for y } = global 2.5 ** * 2.5 * in := 
     yield ... x \
 
     / // 
	 lambda as
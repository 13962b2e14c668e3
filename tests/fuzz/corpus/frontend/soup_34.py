global \
 #c
 as ) -> 
	 
     , try = = from x import + or else + lambda \
 or while except / f'{x}' for y try [ \
 ** x not : : from try async 
	 ** ] def not else with 's' x 2.5 1 in from [ 's' + lambda ) - **
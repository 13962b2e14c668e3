def else as with ) yield yield yield ) global 2.5 f'{x}' [ x ( or [ def and not yield { ) 
 / 2.5 , class except ) / while return lambda return return 
	 with = global global . [ } 
 x . async for := yield
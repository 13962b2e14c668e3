def ** + 2.5 from #c
 is else def def -> try 1 
	 { not or f'{x}' ( def 
     return try 
     @ not 2.5 from class ) : } y 
     and except ( finally - import import is , : := return while pass in } + +
or or -> elif 1 @ @ 
 f'{x}' with finally ... = . @ global class global elif def \
 for return 
	 from 
     try
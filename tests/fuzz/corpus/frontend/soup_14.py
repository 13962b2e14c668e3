if 
     + := ** global [ class . return f'{x}' 
     and @ = f'{x}' ( \
 1 class not try x try : not if : ... f'{x}' 
	 = : f'{x}' else try del del y else is while -> [ 
 x
for with := return [ import , ) 
 elif is [ 
     is : 1 2.5 return while [ in - - class . class f'{x}' #c
 f'{x}' [ pass } def 's'
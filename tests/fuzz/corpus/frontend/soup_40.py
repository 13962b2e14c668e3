with ( 's' in return 2.5 
     pass
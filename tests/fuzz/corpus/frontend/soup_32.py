while 
	 ** * class finally not 
 
 with import with return := return lambda try * ) * * \
 \
 [ y lambda x -> elif is elif lambda / from ) else as global := def \
 and in \
 del lambda \
 return \
 is is {
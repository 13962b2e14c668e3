+ elif elif { \
 is else yield from 2.5 's' finally else ] class pass := finally if ) or x 
	 lambda pass / / pass except ) } del lambda
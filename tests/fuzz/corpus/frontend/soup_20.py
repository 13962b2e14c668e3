/ := + is 
 + ** = / + return * \
 import 's' is yield #c
 1 is while ** := -> not , ) except for y class elif @ f'{x}' 2.5 / 
	 . 2.5 except -> 's' \
 x : as 2.5 not
import except pass { else + . 's' 
 not x while except and \
 / else for 
	 lambda ** with // while - try @ 1 x class { 
	 for 's' global lambda * // x import : try 
	 yield { def not -> ... del +
{ def ... in return : : - * or async ] while elif ) except or -> ) ... } or \
 
	 ** = from 's' finally : ] - ( import @ import } import 
     { return } . y while
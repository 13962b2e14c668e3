f'{x}' elif and { del and global yield try 
 @ and : 
	 try 
	 is =
else { if global and in return pass 
	 except global 's' lambda { , for , and , pass if x { {
+ not try ** #c
 // pass def or -> 
 + = not def def while global or = if @ if +
for , @ is async 2.5 def * 
 try and \
 else 2.5 } yield import ** 2.5 ) 
     async #c
 [ in - global else ) @ ( global = while and y = pass while // in { del import or finally
{ async y for @ while \
 else finally 1 pass #c
 return 
 is 2.5 := 1 ) while \
 . del return and in * if async { and ... elif f'{x}' -> #c
 , def - pass := y elif return ... / except from for
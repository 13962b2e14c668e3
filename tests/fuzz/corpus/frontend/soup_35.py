as / f'{x}' ** pass import import lambda else : = 
 // elif in lambda import as , @
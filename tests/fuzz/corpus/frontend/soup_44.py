1 x or for ** ] -> f'{x}' except - 
 x return x yield finally def global with -> not { in pass ** while elif -
( - ) * in := ... finally except 
 pass global elif as \
 pass except , import -> } async 
     \
 del 1 's' := or - // , except 1 yield [ if / . f'{x}'
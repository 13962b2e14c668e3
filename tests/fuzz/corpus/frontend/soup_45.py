elif ) := -> finally yield f'{x}' import = and @ y { not and from / . in del 's' / . [ 1 in 
 
     : async async is + from , + } global from with async { ( \
 is elif def else 1 = in := pass 
 ->
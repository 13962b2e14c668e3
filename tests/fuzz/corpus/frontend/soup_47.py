#c
 yield := from elif @ in 
 if and -> is as \
 2.5 ... except } -> #c
 . ) - del } class finally } not try try } global import yield + is { if y elif ->
y 's' except class pass is ] // x global def f'{x}' in from del // del { or = from ... 2.5 else not ( del while #c
 ( ... if 2.5 elif 1 // : yield ) with if , del or class 2.5 x f'{x}' #c
 \
 yield async , and or with
from ( or + while [ , del for . finally ... def is * not : finally // pass #c
 for 's' as 
 \
 ( for while + #c
 } - f'{x}'
else + import \
 in return else while def = lambda lambda #c
 class elif
\
 
 is 2.5 or in 2.5 2.5 not } ** x lambda with , if ) async del del - class [ async else ) \
 except ) import y . * async if return or ( del #c
 2.5 with 1 #c

\
 ... ( ** is #c
 // for ] elif 
     pass elif // ) x def 1 // global from
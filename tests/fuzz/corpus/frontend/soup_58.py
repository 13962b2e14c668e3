. while \
 finally + not -> + elif -> finally global and except while and = -> 's' as as := class (
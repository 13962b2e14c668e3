in := while class global 2.5 yield while elif x ** ** 's' ( x if 's' def -> in class ** finally 2.5 and . lambda is lambda return ] y : yield if 
     is not or 
     from / y del [ }
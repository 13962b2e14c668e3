\
 else + } or not ** not async with if 2.5 yield yield ... ... while y \
 , finally global 2.5 ) and := import finally yield del and , f'{x}' else finally // + ** : class ( * del : = while f'{x}' from with * y ] . #c
 ( except try ** x
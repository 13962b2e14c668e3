async = #c
 else ... * del - for async [ pass [ import try finally return \
 as
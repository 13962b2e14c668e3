2.5 = is : 's' finally from { ] pass class as * from else not = @ y #c
 def : in elif del 's' in - ** class elif x del [ if ] / } async ** del f'{x}' . async finally f'{x}' as
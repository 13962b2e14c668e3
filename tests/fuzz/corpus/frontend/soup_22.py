in try yield := [ #c
 else / #c
 )
- #c
 } yield } return : not 
     or [ ( pass class := global := } ) as // if for from return and 's' while + @ in { or ... with as * x @
a ! b

lambda \
 global def def @ class ] * ... ( 1 and // del return elif and as x 's'
except \
 global elif - lambda + finally as := except // and if \
 's' [ 's' not
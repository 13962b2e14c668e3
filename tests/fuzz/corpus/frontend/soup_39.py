
     try
s = 'héllo wörld  = 2; c = 3;

print(repr('\x01\x7f\t\n\\\'"é\u2028'), repr(chr(0)), ascii('é') if False else 0)

try:
    print('abc'.startswith(1))
except Exception as e:
    print(type(e).__name__, e)
try:
    print('aaa'.replace('a', 'bb'))
except Exception as e:
    print(type(e).__name__, e)
try:
    print('aaa'.replace('a', 'b', 2))
except Exception as e:
    print(type(e).__name__, e)
try:
    print('aaa'.replace('', '-'))
except Exception as e:
    print(type(e).__name__, e)
try:
    print('abcabc'.find('c'))
except Exception as e:
    print(type(e).__name__, e)
try:
    print('abcabc'.rfind('c'))
except Exception as e:
    print(type(e).__name__, e)
try:
    print('abc'.index('z'))
except Exception as e:
    print(type(e).__name__, e)
try:
    print('abc'.rindex('a'))
except Exception as e:
    print(type(e).__name__, e)
try:
    print('aaa'.count('a'))
except Exception as e:
    print(type(e).__name__, e)
try:
    print('aaa'.count(''))
except Exception as e:
    print(type(e).__name__, e)
try:
    print('123'.isdigit())
except Exception as e:
    print(type(e).__name__, e)
try:
    print('12a'.isalnum())
except Exception as e:
    print(type(e).__name__, e)
try:
    print('ab'.isalpha())
except Exception as e:
    print(type(e).__name__, e)
try:
    print(' '.isspace())
except Exception as e:
    print(type(e).__name__, e)
try:
    print('AB'.isupper())
except Exception as e:
    print(type(e).__name__, e)
try:
    print('ab'.islower())
except Exception as e:
    print(type(e).__name__, e)
try:
    print('1'.isdecimal())
except Exception as e:
    print(type(e).__name__, e)
try:
    print('1'.isnumeric())
except Exception as e:
    print(type(e).__name__, e)
try:
    print('7'.zfill(4))
except Exception as e:
    print(type(e).__name__, e)
try:
    print('-7'.zfill(4))
except Exception as e:
    print(type(e).__name__, e)

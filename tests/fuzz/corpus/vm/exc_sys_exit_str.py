import sys
sys.exit('message')

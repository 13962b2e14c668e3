import time
time.sleep(10**9)

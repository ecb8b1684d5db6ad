import time

def test_slow_download():
    time.sleep(20)

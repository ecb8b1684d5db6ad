import time

def test_slow():
    time.sleep(3)

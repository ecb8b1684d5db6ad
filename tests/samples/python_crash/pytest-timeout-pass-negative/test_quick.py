import time

def test_quick():
    time.sleep(0.1)

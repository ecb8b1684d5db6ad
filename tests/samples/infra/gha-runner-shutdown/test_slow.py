import time


def test_fast():
    assert True


def test_waits_for_a_lock_that_never_comes():
    time.sleep(600)

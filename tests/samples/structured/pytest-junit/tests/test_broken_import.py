import cartt  # typo: no such module


def test_never_runs():
    assert cartt

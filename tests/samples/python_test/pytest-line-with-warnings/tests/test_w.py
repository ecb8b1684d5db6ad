import warnings


def test_warns_and_fails():
    warnings.warn("old api", DeprecationWarning)
    assert 1 == 2


def test_second():
    assert "a" == "b"

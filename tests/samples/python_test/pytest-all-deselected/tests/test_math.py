def test_add():
    assert 1 + 1 == 2


def test_sub():
    assert 2 - 1 == 1

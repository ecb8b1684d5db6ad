from cart import total


def test_total():
    assert total([2, 4]) == 6


def test_empty():
    assert total([]) == 0


def test_single():
    assert total([5]) == 4

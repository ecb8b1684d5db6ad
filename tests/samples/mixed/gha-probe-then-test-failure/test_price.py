def price(n):
    return n * 3


def test_price_of_two():
    assert price(2) == 5

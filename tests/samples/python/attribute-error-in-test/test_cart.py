class Cart:
    def __init__(self):
        self.items = []


def test_total_of_empty_cart():
    assert Cart().total() == 0

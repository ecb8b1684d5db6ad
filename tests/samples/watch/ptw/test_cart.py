from cart import total


def test_total_multiplies_by_quantity():
    assert total([(3, 2), (5, 1)]) == 11

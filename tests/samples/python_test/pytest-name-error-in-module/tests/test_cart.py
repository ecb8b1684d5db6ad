import pytest

from shop.cart import count, total


def test_empty_total():
    assert total([]).cents == 0


def test_one_item():
    assert total([250]).cents == 250


@pytest.mark.parametrize("prices", [[1, 2], [3], [10, 20, 30]])
def test_totals(prices):
    assert total(prices).cents == sum(prices)


@pytest.mark.parametrize("make", [lambda: [1], lambda: [2, 3]])
def test_lazy(make):
    assert total(make()).cents > 0


class TestCart:
    def test_big(self):
        assert total([10**6]).cents == 10**6

    def test_count(self):
        assert count([1, 2]) == 2

import pytest

from shop.calc import ratio, total


def test_total():
    assert total([{"price": 2}, {"price": 3}]) == 5


class TestRatio:
    def test_zero(self):
        assert ratio(1, 0) == 0

    @pytest.mark.parametrize("a,b,want", [(4, 2, 2), (1, 4, 0.5)])
    def test_values(self, a, b, want):
        assert ratio(a, b) == want


def test_message():
    assert "hello world" == "hello there"

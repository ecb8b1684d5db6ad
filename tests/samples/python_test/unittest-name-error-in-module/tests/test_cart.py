import unittest

from shop.cart import count, total


class CartTest(unittest.TestCase):
    def test_empty_total(self):
        self.assertEqual(total([]).cents, 0)

    def test_one_item(self):
        self.assertEqual(total([250]).cents, 250)

    def test_many(self):
        for prices in ([1, 2], [3]):
            with self.subTest(prices=prices):
                self.assertEqual(total(prices).cents, sum(prices))

    def test_count(self):
        self.assertEqual(count([1, 2]), 2)


class BigTest(unittest.TestCase):
    def test_big(self):
        self.assertEqual(total([10**6]).cents, 10**6)

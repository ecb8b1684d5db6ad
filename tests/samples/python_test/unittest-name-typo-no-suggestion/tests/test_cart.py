import unittest

from shop.cart import cart_total


class CartTest(unittest.TestCase):
    def test_total(self):
        self.assertEqual(cart_total([(2, 3), (1, 4)]), 10)

    def test_empty(self):
        self.assertEqual(cart_total([]), 0)

import unittest

from shop.cart import Cart
from shop.money import Money


class CartTests(unittest.TestCase):
    def test_subtotal_adds_items(self) -> None:
        cart = Cart()
        cart.add("pen", 150)
        cart.add("book", 1250)
        self.assertEqual(cart.subtotal(), Money(1400))


if __name__ == "__main__":
    unittest.main()

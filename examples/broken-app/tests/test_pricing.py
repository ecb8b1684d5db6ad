import unittest

from shop.pricing import total_with_tax


class PricingTests(unittest.TestCase):
    def test_tax_is_added(self) -> None:
        self.assertEqual(total_with_tax(1000, 8), 1080)


if __name__ == "__main__":
    unittest.main()

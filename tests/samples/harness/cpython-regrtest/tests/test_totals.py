import unittest

class TotalTest(unittest.TestCase):
    def test_total(self):
        self.assertEqual(sum([1, 2]), 4)

    def test_empty(self):
        self.assertEqual(sum([]), 0)

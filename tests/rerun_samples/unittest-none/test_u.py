import unittest


class T(unittest.TestCase):
    def test_ok(self):
        self.assertEqual(1, 1)

    @unittest.skip("later")
    def test_skip(self):
        pass

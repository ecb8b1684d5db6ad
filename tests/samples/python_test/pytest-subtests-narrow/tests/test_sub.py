import unittest


def ilen(iterable):
    return sum(1 for _ in iterable) - 1


class IlenTests(unittest.TestCase):
    def test_ilen(self):
        for n in range(3):
            with self.subTest(n=n):
                self.assertEqual(ilen(range(n)), n)


def test_with_fixture(subtests):
    for n in (1, 2):
        with subtests.test(msg="counts", n=n):
            assert ilen(range(n)) == n


def test_plain():
    assert ilen([1]) == 1

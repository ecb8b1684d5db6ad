import unittest


class ErrorHandlingTest(unittest.TestCase):
    def test_error_message(self):
        self.assertEqual(str(ValueError("FAIL: bad")), "FAIL: bad")

    def test_failure_count(self):
        failures = 0
        self.assertEqual(failures, 0)

    def test_raises_error(self):
        with self.assertRaises(KeyError):
            {}["missing"]

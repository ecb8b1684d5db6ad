import os
import unittest


def main(argv):
    """The tool's entry point: a hard exit on a bad argument (as a CLI's
    fast path does), which also ends the test process."""
    if "--bad" in argv:
        os._exit(3)
    return 0


class CliTest(unittest.TestCase):
    def test_rejects_bad_flag(self):
        self.assertEqual(main(["--bad"]), 2)

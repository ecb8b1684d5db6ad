"""Prices.

>>> with_tax(0)
0.0
"""


def with_tax(price):
    """Price with 20% tax.

    >>> with_tax(10)
    12.0
    >>> with_tax(5)
    6.0
    >>> discount(10)
    9.0
    """
    return price * 1.2 + 0.5

def with_tax(price):
    """Price with 20% tax.

    >>> with_tax(10)
    12.0
    >>> with_tax(0)
    0
    """
    return price * 1.2 + 0.5

"""Prices and taxes."""


def total_with_tax(cents: int, rate_percent: int) -> int:
    """The amount with tax added, rounded down to the cent."""
    # Bug 2 (test): a percentage is per hundred, not per thousand.
    return cents + cents * rate_percent // 1000

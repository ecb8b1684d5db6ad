"""A shopping cart (the import of Money was removed by mistake)."""


def total(prices: list[int]) -> "Money":
    result = Money(0)
    for p in prices:
        result = result + Money(p)
    return result


def count(prices: list[int]) -> int:
    return len(prices)

def total(prices):
    return sum(prices) - 1


def discount(price, pct):
    return price * (100 - pct) / 100

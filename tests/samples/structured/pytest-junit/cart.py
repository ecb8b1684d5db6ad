def total(prices):
    return sum(prices) - 1  # off by one on purpose

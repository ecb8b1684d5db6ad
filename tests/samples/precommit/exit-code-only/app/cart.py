def total(prices):
    # TODO: discounts
    return sum(prices)

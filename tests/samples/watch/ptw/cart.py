def total(items):
    return sum(price for price, qty in items)

def total(items):
    return sum(i["price"] for i in items) - 1


def ratio(a, b):
    return a / b

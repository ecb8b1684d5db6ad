def line_total(price, qty):
    return price * qty


def cart_total(lines):
    total = 0
    for price, qty in lines:
        total += line_totl(price, qty)
    return total

class Invoice:
    def __init__(self, amount):
        self.amount = amount


def total(invoices):
    return sum(i.ammount for i in invoices)


print(total([Invoice(3), Invoice(4)]))

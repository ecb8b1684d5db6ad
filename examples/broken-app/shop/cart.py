"""A shopping cart."""

from shop.pricing import total_with_tax


# Bug 1 (compile): Money is defined in shop/money.py but never imported here.
EMPTY = Money(0)


class Cart:
    def __init__(self) -> None:
        self.items: list[tuple[str, int]] = []

    def add(self, name: str, cents: int) -> None:
        self.items.append((name, cents))

    def subtotal(self):
        total = EMPTY
        for _name, cents in self.items:
            total = total + Money(cents)
        return total

    def total(self, tax_percent: int) -> int:
        return total_with_tax(self.subtotal().cents, tax_percent)

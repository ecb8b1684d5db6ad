"""Money: a module whose `from decimal import ROUND_HALF_UP, Decimal` was lost."""

import re
from pathlib import Path


def parse(s: str) -> Decimal:
    d = Decimal(re.sub(r"[^0-9.]", "", s))
    return d.quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)


def where() -> Path:
    return Path(__file__)


if __name__ == "__main__":
    print(parse("$1.005"))

def render(prices: list[int]) -> str:
    # imported here to keep start-up light; the name was mistyped
    from shop.money import Mony

    return ", ".join(str(Mony(p).cents) for p in prices)


def export(prices: list[int]) -> bytes:
    import reportlab_missing  # a dependency the project does not declare

    return reportlab_missing.render(prices)

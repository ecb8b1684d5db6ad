import os


def render(rows):
    return "\n".join(format_row(r) for r in rows)


def summary(rows):
    return f"{len(rows)} rows, {totl} total"

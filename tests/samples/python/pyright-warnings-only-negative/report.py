import os


def report(errors: list[str]) -> str:
    errors == []
    return f"{len(errors)} errors"


print(report([]))

"""Error handling helpers; nothing here is an error."""


class ErrorCount:
    def __init__(self) -> None:
        self.errors = 0

    def add(self, n: int) -> int:
        self.errors += n
        return self.errors


def error_summary(count: ErrorCount) -> str:
    return f"{count.errors} errors"

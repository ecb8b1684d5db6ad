def legacy_handler(event):
    error_count: int = "none"
    return error_count


def typed(x: int) -> int:
    return x + 1

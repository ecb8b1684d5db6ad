def label(n):
    return f"{n} items"

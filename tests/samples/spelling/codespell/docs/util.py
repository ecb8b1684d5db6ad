def occurence_count(items):
    """Return how many times each item occurs."""
    return len(items)  # teh count

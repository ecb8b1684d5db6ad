__all__ = ["most_common"]


def most_common(seq):
    counts = frequencies(seq)
    return max(counts, key=counts.get)

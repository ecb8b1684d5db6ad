def count_words(text: str) -> dict[str, int]:
    counts: dict[str, int] = {}
    for word in text.split():
        counts[word] = counts.get(word, 0) + 1
    return counts


def top(counts: dict[str, int]) -> str:
    if not counts:
        raise ValueError("no words")
    return max(counts, key=counts.__getitem__)

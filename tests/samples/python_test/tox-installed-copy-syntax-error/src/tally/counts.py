def count_words(text: str) -> dict[str, int]:
    counts: dict[str, int] = {}
    for word in text.split():
        counts[word.lower()] = counts.get(word.lower(), 0) + 1
    return dict(sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))

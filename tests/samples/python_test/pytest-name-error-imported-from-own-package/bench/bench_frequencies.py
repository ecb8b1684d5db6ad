from kit import frequencies

data = list(range(1000)) * 10


def time_frequencies():
    frequencies(data)

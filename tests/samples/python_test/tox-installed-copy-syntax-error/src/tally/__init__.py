from .counts import count_words

__all__ = ["count_words"]

"""Whether a text holds any of a fixed set of words.

`any(w in text for w in words)` is a Python-level loop of substring tests,
about 1 µs for each word on every text; a set of words is better found with
one scan of an Aho-Corasick automaton (ahocorasick_rs, as the prefilter
uses), built the first time the set is asked about.  Any occurrence of a
word gives at least one match, so the answers are the same.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ahocorasick_rs import AhoCorasick


class WordSet:
    """A fixed set of words, asked whether a text contains any of them."""

    __slots__ = ("_automaton", "words")

    def __init__(self, words: Iterable[str]) -> None:
        self.words = tuple(words)
        self._automaton: AhoCorasick | None = None

    def found_in(self, text: str) -> bool:
        """`any(w in text for w in self.words)`."""
        automaton = self._automaton
        if automaton is None:
            from ahocorasick_rs import AhoCorasick

            automaton = self._automaton = AhoCorasick(list(self.words))
        return bool(automaton.find_matches_as_indexes(text))

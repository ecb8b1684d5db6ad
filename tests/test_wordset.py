"""A WordSet (classifier/wordset.py) answers as the loop of `in` tests it
replaces, on text made of its words, their pieces and other characters
(ASCII and not)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from faultlens.classifier.wordset import WordSet

_WORDS = ("pass", "pwd", "secret", "key", "-p", "-h", "passw", "credential")
_PIECES = [*_WORDS, "pas", "s", "-", "k", "ey", "cred", " ", "\n", "é", "ſ", "—", "x"]
_text = st.lists(st.sampled_from(_PIECES), max_size=20).map("".join)


@settings(max_examples=400, deadline=None, derandomize=True)  # the same draw each run
@given(st.lists(st.sampled_from(_WORDS), min_size=1, unique=True), _text)
def test_a_word_set_finds_a_word_exactly_when_one_is_in_the_text(words, text):
    assert WordSet(words).found_in(text) == any(w in text for w in words)


@settings(max_examples=200, deadline=None, derandomize=True)
@given(st.text(max_size=40))
def test_any_text_is_answered_as_the_loop_answers(text):
    assert WordSet(_WORDS).found_in(text) == any(w in text for w in _WORDS)

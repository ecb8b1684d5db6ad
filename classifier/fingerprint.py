"""Stable fingerprints for failures.

The id must survive the edits that shift a failure around without changing
it: an import inserted above it moves its line, a rebuild renumbers temporary
files.  So the id hashes the category, the tool's code, the file and the
message with every number and run of whitespace normalised; the line and
column are deliberately left out.

Two failures of one run are one record only when their messages are the same
but for whitespace (`same_failure_text`): "Expected 2 arguments, but got 3."
and "Expected 1 arguments, but got 0." on one line are two failures.  Their
normalised messages are equal, so the engine numbers the second id
(`<id>.2`), in output order, which a line shift does not change.
"""

from __future__ import annotations

import hashlib
from functools import lru_cache

from .lazyre import lazy_compile

_NUMBER = lazy_compile(r"\d+")
_SPACE = lazy_compile(r"\s+")
_HEXISH = lazy_compile(r"\b(?:0x)?[0-9a-f]{7,}\b")
# Seven hex digits in a row: in every _HEXISH match.  A pattern that starts
# with a character class is scanned for in C; one that starts with \b is
# tried at every position.
_HEX_RUN = lazy_compile(r"[0-9a-f]{7}")


CACHED_CHARS = 1024  # longer messages are normalised every time (bounds the cache)


def normalise_message(message: str) -> str:
    """The message with hashes, numbers and whitespace runs folded.  (Pure,
    so cached: a long output repeats its failures, and so do re-runs.)"""
    if len(message) > CACHED_CHARS:
        return _normalise(message)
    return _normalise_cached(message)


def _normalise(message: str) -> str:
    text = message.strip().lower()
    if _HEX_RUN.search(text):
        text = _HEXISH.sub("#", text)
    text = _NUMBER.sub("#", text)
    return _SPACE.sub(" ", text)


_normalise_cached = lru_cache(maxsize=4096)(_normalise)


def same_failure_text(message: str) -> str:
    """What two reports of one failure share: the message with whitespace runs
    folded, numbers kept (numbers tell different failures on one line apart).
    (Pure, so cached as `normalise_message` is: every hit asks it.)"""
    if len(message) > CACHED_CHARS:
        return _fold_spaces(message)
    return _fold_spaces_cached(message)


def _fold_spaces(message: str) -> str:
    return _SPACE.sub(" ", message.strip())


_fold_spaces_cached = lru_cache(maxsize=4096)(_fold_spaces)


def fingerprint(failure_type: str, code: str | None, file: str | None, message: str) -> str:
    """A 16-hex-digit id for (category, code, file, normalised message)."""
    return fingerprint_normalised(failure_type, code, file, normalise_message(message))


def fingerprint_normalised(
    failure_type: str, code: str | None, file: str | None, normalised: str
) -> str:
    """`fingerprint` of a message already through `normalise_message`."""
    key = "\x1f".join((failure_type, code or "", file or "", normalised))
    return hashlib.sha1(key.encode("utf-8", "replace"), usedforsecurity=False).hexdigest()[:16]

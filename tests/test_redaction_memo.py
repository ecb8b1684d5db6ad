"""Redacting a classification's hits through one TextMemo (what the engine
does: each distinct text masked once per vault) gives every hit the text,
hint and related messages that redacting each hit on its own gives, also
when a scanner names a new secret in the middle of the output."""

from __future__ import annotations

import copy

from hypothesis import given, settings
from hypothesis import strategies as st

from faultlens.classifier.redact import (
    SECRET_HINT,
    TextMemo,
    redact_hit_details,
    redact_hit_text,
)
from faultlens.classifier.rules.base import Hit

_VALUE = "s3cr3t" + "value" + "42"  # (assembled: no secret-shaped literal here)
_PIECES = [
    "password=", "--token ", "api_key: ", "mysql -p", "Bearer ", _VALUE, _VALUE[:9],
    "hunter" + "2x", "error:", "src/a.c:3:", " ", "\n", "é", "x",
]  # fmt: skip
_text = st.lists(st.sampled_from(_PIECES), max_size=8).map("".join)
_hint = st.dictionaries(
    st.sampled_from(["test_id", "detail", "name", SECRET_HINT]),
    st.one_of(_text, st.lists(_text, max_size=3), st.integers(0, 9)),
    max_size=3,
)
_hit = st.builds(
    Hit,
    signal=_text,
    message=_text,
    hint=_hint,
    related=st.lists(st.tuples(st.just("a.c"), st.just(1), st.none(), _text), max_size=2),
)


def _redacted(hit: Hit, vault: set[str], memo: TextMemo | None, keys: list[str] | None) -> Hit:
    secrets = redact_hit_text(hit, vault, memo)
    redact_hit_details(hit, secrets, keys, memo)
    return hit


@settings(max_examples=200, deadline=None, derandomize=True)  # the same draw each run
@given(st.lists(st.tuples(_hit, st.booleans()), max_size=12))
def test_hits_redacted_through_one_memo_are_the_hits_redacted_alone(hits):
    memo, memo_vault, vault = TextMemo(), set[str](), set[str]()
    for hit, merged in hits:
        keys = sorted(hit.hint) if merged else None  # a hit merged into a record
        with_memo = _redacted(copy.deepcopy(hit), memo_vault, memo, keys)
        alone = _redacted(copy.deepcopy(hit), vault, None, keys)
        assert (with_memo.signal, with_memo.message) == (alone.signal, alone.message)
        assert (with_memo.hint, with_memo.related) == (alone.hint, alone.related)
        assert memo_vault == vault

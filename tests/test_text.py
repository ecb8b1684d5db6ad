"""Turning output bytes into lines (classifier/text.py): each fast path gives
what its plain definition gives, on output made of the pieces that matter
(runner stamps, container prefixes, CR redraws, escapes, C1 controls,
invalid UTF-8)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from faultlens.classifier.text import (
    _C1_BYTES,
    _has_c1,
    _unstamped,
    clean_bytes,
    clean_joined,
    decode_line,
    decode_lines,
    has_caret_escape,
    visible,
)

PIECES = [
    b"2026-12-01T10:00:00.1234567Z ",
    b"2026-12-01T10:00:00Z 00O ",
    b"#12 3.456 ",
    b"#",
    b"web-1  | ",
    b" | ",
    b"Z ",
    b"\r",
    b"\n",
    b"\x1b[31m",
    b"\x1b]8;;file:///x\x07",
    b"\x00",
    b"\xc2",
    b"\xc2\x9b1m",
    b"\xc2\xa0",
    b"\x85",
    b"\xff",
    b"\xe2\x9c\x96 ",
    b"src/app.ts(3,5): error TS2304",
    b"x",
    b" ",
]
output = st.lists(st.sampled_from(PIECES), max_size=30).map(b"".join)


def _plain_decode_line(raw: bytes) -> str:
    return _unstamped(visible(raw.decode("utf-8", "replace")))


@settings(max_examples=400)
@given(output)
def test_a_line_decodes_as_its_definition_says(raw):
    for line in raw.split(b"\n"):
        assert decode_line(line) == _plain_decode_line(line)


@settings(max_examples=400)
@given(output)
def test_lines_decoded_in_one_go_are_the_lines_decoded_one_by_one(raw):
    assert decode_lines(raw) == [_plain_decode_line(x) for x in raw.split(b"\n")]


@settings(max_examples=400)
@given(output, st.integers(0, 40), st.integers(0, 40))
def test_a_c1_control_is_found_wherever_the_regex_finds_one(raw, a, b):
    start, end = sorted((min(a, len(raw)), min(b, len(raw))))
    at = raw.find(b"\xc2", start, end)
    expected = at >= 0 and _C1_BYTES.search(raw, at, end) is not None
    assert _has_c1(raw, start, end) == expected


def test_a_c1_control_after_many_other_0xc2_bytes_is_still_found():
    raw = b"\xc2\xa0" * 100 + b"\xc2\x9b31m" + b"x\n"
    assert _has_c1(raw, 0, len(raw))
    assert not _has_c1(raw, 0, 200)


caret_text = st.lists(
    st.sampled_from([b"^", b"[", b"^[", b"^[[31m", b"x" * 300, b"\n"]), max_size=40
)


@settings(max_examples=400)
@given(caret_text.map(b"".join), st.integers(0, 4000), st.integers(0, 4000))
def test_a_caret_escape_is_found_wherever_the_plain_search_finds_one(raw, a, b):
    start, end = sorted((min(a, len(raw)), min(b, len(raw))))
    assert has_caret_escape(raw, start, end) == (raw.find(b"^[", start, end) >= 0)


def test_a_caret_escape_after_many_lone_carets_is_still_found():
    raw = b"    ^~~~~\n" * 200 + b"^[[31mred\n"
    assert has_caret_escape(raw, 0, len(raw))
    assert not has_caret_escape(raw, 0, len(raw) - 9)  # up to its `^`


@settings(max_examples=400)
@given(output.filter(lambda b: b"\n" not in b), output, st.data())
def test_joining_a_head_to_a_chunk_cleans_as_the_joined_bytes_do(head, data, draw):
    data += b"\n"
    start = draw.draw(st.integers(0, len(data) - 1))
    ends = [i + 1 for i in range(start, len(data)) if data[i : i + 1] == b"\n"]
    end = draw.draw(st.sampled_from(ends))  # (the joined bytes end a line)
    assert clean_joined(head, data, start, end) == clean_bytes(head + data[start:end])

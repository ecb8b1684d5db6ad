"""Property-based tests of the classifier (hypothesis): whatever bytes come
in, in whatever pieces, it never raises, every record validates against
the published JSON Schema (`faultlens schema`), and every record's place in
the output (`log_line`) is a line the input has.

Inputs: arbitrary bytes; lines of the real sample corpus mixed with invalid
UTF-8, NUL, deep or unterminated ANSI sequences and CR/CRLF/LF mixes;
sample reports cut off at any byte (truncated multi-line reports); a 50 MB
single line.
"""

from __future__ import annotations

import io
import json
import time
import tracemalloc
from functools import cache

import jsonschema
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from faultlens.classifier import record_schema
from faultlens.classifier.engine import Classifier, Options
from faultlens.classifier.record import FailureRecord
from faultlens.classifier.structured import classify_stream

from .conftest import SAMPLES

SETTINGS = settings(
    max_examples=300,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    derandomize=True,
)
OPTIONS = Options(cwd="/nonexistent-faultlens-project", exit_code=1)


@cache
def _validator() -> jsonschema.protocols.Validator:
    schema = record_schema.FailureRecord.model_json_schema()
    cls = jsonschema.validators.validator_for(schema)
    cls.check_schema(schema)
    return cls(schema)


@cache
def _sample_lines() -> list[bytes]:
    lines: set[bytes] = set()
    for p in sorted(SAMPLES.glob("*/*/output.*")):
        lines.update(p.read_bytes().splitlines()[:400])
    return sorted(lines)


@cache
def _sample_outputs() -> list[bytes]:
    return [p.read_bytes() for p in sorted(SAMPLES.glob("*/*/output.*"))]


def _check(records: list[FailureRecord], data: bytes) -> None:
    n_lines = data.count(b"\n") + (0 if data.endswith(b"\n") or not data else 1)
    v = _validator()
    for r in records:
        doc = json.loads(json.dumps(r.to_json()))
        errors = sorted(v.iter_errors(doc), key=str)
        assert not errors, f"{r.rule}: {errors[0].message}"
        if r.log_line is not None:
            assert 1 <= r.log_line <= max(1, n_lines), (r.rule, r.log_line, n_lines)
        for loc in r.related:
            assert loc.line is None or loc.line >= 1
        assert "\x00" not in r.signal and "\x1b" not in r.signal
        assert not any("\x80" <= ch <= "\x9f" for ch in r.signal), r.signal  # C1 controls


def _classify(data: bytes, pieces: list[int]) -> list[FailureRecord]:
    c = Classifier(OPTIONS)
    pos = 0
    for size in pieces:
        c.feed(data[pos : pos + size])
        pos += size
    c.feed(data[pos:])
    records = c.close()
    assert not c.rule_errors, c.rule_errors
    return records


ANSI = st.sampled_from(
    [
        b"\x1b[31m",
        b"\x1b[0m",
        b"\x1b[1;4;38;5;196m",
        b"\x1b[",  # unterminated CSI
        b"\x1b]0;title\x07",
        b"\x1b]8;;file:///etc/passwd\x1b\\",
        b"\x1b]8;;",  # unterminated OSC
        b"\x1b[2K\r",
        b"\x1bc",
        b"\x1b[" + b"1;" * 500 + b"m",  # a very long parameter list
        b"\x1b[" * 200,  # deeply repeated introducers
        b"\xc2\x9b31m",  # CSI as the C1 control U+009B
        b"\xc2\x9b",  # unterminated C1 CSI
        b"\xc2\x9d0;title\x07",  # C1 OSC
        b"\xc2\x85",  # C1 NEL
    ]
)
JUNK = st.sampled_from(
    [b"\x00", b"\xff", b"\xc3", b"\xed\xa0\x80", b"\xef\xbb\xbf", b"\r", b"\r\n", b"\n", b"\t"]
)


@st.composite
def noisy_output(draw: st.DrawFn) -> bytes:
    lines = _sample_lines()
    parts: list[bytes] = []
    for _ in range(draw(st.integers(1, 40))):
        kind = draw(st.integers(0, 3))
        if kind == 0:
            parts.append(draw(st.sampled_from(lines)))
        elif kind == 1:
            parts.append(draw(ANSI))
        elif kind == 2:
            parts.append(draw(JUNK))
        else:
            parts.append(draw(st.binary(max_size=64)))
        parts.append(draw(st.sampled_from([b"\n", b"\r\n", b"\r", b""])))
    return b"".join(parts)


pieces = st.lists(st.integers(1, 4096), max_size=20)


@SETTINGS
@given(data=st.binary(max_size=20_000), split=pieces)
def test_arbitrary_bytes_never_raise_and_give_valid_records(data: bytes, split: list[int]):
    _check(_classify(data, split), data)


@SETTINGS
@given(data=noisy_output(), split=pieces)
def test_real_lines_mixed_with_ansi_nul_invalid_utf8_and_crlf_give_valid_records(
    data: bytes, split: list[int]
):
    _check(_classify(data, split), data)


@SETTINGS
@given(
    which=st.integers(0, 10_000),
    cut=st.floats(0, 1),
    split=pieces,
)
def test_any_sample_report_cut_off_anywhere_gives_valid_records(
    which: int, cut: float, split: list[int]
):
    outputs = _sample_outputs()
    full = outputs[which % len(outputs)]
    data = full[: int(len(full) * cut)]
    _check(_classify(data, split), data)
    # the structured parsers (JUnit XML, SARIF) meet the same cut
    _check(classify_stream(io.BytesIO(data), OPTIONS), data)


@SETTINGS
@given(data=noisy_output())
def test_feeding_byte_by_byte_finds_the_same_failures_as_feeding_at_once(data: bytes):
    data = data[:3000]
    whole = _classify(data, [])
    drip = _classify(data, [1] * len(data))
    assert [(r.rule, r.log_line) for r in whole] == [(r.rule, r.log_line) for r in drip]


@pytest.mark.parametrize("where", ["start", "middle", "end"])
def test_a_50_mb_single_line_is_classified_in_bounded_memory(where: str):
    size = 50 * 1024 * 1024
    trigger = b"src/a.ts(3,1): error TS2304: Cannot find name 'X'."
    filler = b"\x1b[31m\x00x\xff" * 64
    c = Classifier(OPTIONS)
    tracemalloc.start()
    t0 = time.perf_counter()
    try:
        fed = 0
        chunk = filler * (1024 * 1024 // len(filler))
        if where == "start":
            c.feed(trigger)
        while fed < size:
            c.feed(chunk)
            fed += len(chunk)
            if where == "middle" and fed >= size // 2 and fed - len(chunk) < size // 2:
                c.feed(trigger)
        if where == "end":
            c.feed(trigger)
        c.feed(b"\nsrc/b.ts(1,1): error TS2304: Cannot find name 'Y'.\n")
        records = c.close()
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    elapsed = time.perf_counter() - t0
    assert peak < 16 * 1024 * 1024, f"peak {peak / 2**20:.1f} MiB"
    assert elapsed < 60
    # the line after the giant one is still found, on line 2
    assert [(r.code, r.log_line) for r in records][-1] == ("TS2304", 2)
    for r in records:
        assert len(r.signal) <= 500


def test_an_unterminated_hyperlink_escape_does_not_swallow_the_lines_after_it():
    data = b"\x1b]8;;file:///x\n\nsrc/a.ts(3,1): error TS2304: Cannot find name 'X'.\n"
    assert [(r.code, r.log_line) for r in _classify(data, [])] == [("TS2304", 3)]


@pytest.mark.parametrize("esc", [b"\x1bc", b"\x1b(B", b"\x1b7", b"\x1b#8", b"\x1b", b"\x1b["])
def test_no_escape_sequence_reaches_a_record(esc: bytes):
    data = b"src/a.ts(3,1): error TS2304: Cannot find name " + esc + b"'X'." + esc + b"\n"
    (rec,) = _classify(data, [])
    assert "\x1b" not in rec.signal + rec.message
    assert rec.code == "TS2304"

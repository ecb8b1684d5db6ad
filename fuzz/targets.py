"""Fuzz targets: one function per input format, each taking raw bytes.

Each target classifies the bytes the way `faultlens classify` would and then
checks the invariants every caller relies on:

* nothing raises (a parser that meets junk falls back or gives up quietly);
* every record survives a JSON round trip through the FailureRecord schema;
* every `log_line` points at a line that exists in the input.

The same functions are driven by atheris (`fuzz/run.sh`, coverage guided)
and by tests/security/test_fuzz_targets.py (a few hundred seeded inputs
under plain pytest, so CI exercises them without a fuzzer).
"""

from __future__ import annotations

import io
import json
import tempfile
from collections.abc import Callable

from faultlens.classifier.engine import Classifier, Options
from faultlens.classifier.record import FailureRecord
from faultlens.classifier.rules.registry import all_rules
from faultlens.classifier.structured import classify_stream
from faultlens.classifier.structured import junit as junit_parser
from faultlens.classifier.structured import sarif as sarif_parser

# An empty project folder: rules resolve paths against it, nothing is read
# from the real work tree.
_CWD = tempfile.mkdtemp(prefix="faultlens-fuzz-")
_CARGO_RULES = [r for r in all_rules() if r.id.startswith("cargo_json.")]


def _lines(data: bytes) -> int:
    return data.count(b"\n") + (0 if data.endswith(b"\n") or not data else 1)


def check_records(records: list[FailureRecord], data: bytes) -> None:
    """The invariants every record must keep, whatever the input."""
    lines = max(1, _lines(data))
    for rec in records:
        again = FailureRecord.model_validate_json(json.dumps(rec.to_json()))
        assert again == rec, "record does not survive a JSON round trip"
        if rec.log_line is not None:
            assert 1 <= rec.log_line <= lines, f"log_line {rec.log_line} outside {lines} lines"
        assert len(rec.signal) <= 4096, "signal not bounded"


def _split_feed(data: bytes, options: Options) -> list[FailureRecord]:
    """Feed the bytes in uneven pieces (the split is derived from the data)."""
    c = Classifier(options)
    step = 1 + (data[0] if data else 0) * 7
    for i in range(0, len(data), step):
        c.feed(data[i : i + step])
    return c.close()


def classify_text(data: bytes) -> None:
    """The streaming text engine with every rule, fed whole and in pieces."""
    options = Options(cwd=_CWD, exit_code=1)
    whole = Classifier(options)
    whole.feed(data)
    records = whole.close()
    assert not whole.rule_errors, f"a rule raised: {whole.rule_errors}"
    check_records(records, data)
    pieces = _split_feed(data, options)
    check_records(pieces, data)
    # Chunking never changes which failures are found, nor where.  (Details a
    # rule gathers by looking further back than the engine's tail across a
    # chunk boundary may differ: ctx.before(n) is exact only within the tail.)
    found = [(r.rule, r.failure_type, r.log_line) for r in records]
    assert found == [(r.rule, r.failure_type, r.log_line) for r in pieces], "split changed records"


def _structured(data: bytes) -> None:
    records = classify_stream(io.BytesIO(data), Options(cwd=_CWD, exit_code=1))
    check_records(records, data)


def junit(data: bytes) -> None:
    """JUnit XML: the bytes behind a JUnit head, so the XML parser reads them."""
    head = b'<?xml version="1.0"?>\n<testsuites>'
    blob = data if junit_parser.sniff(data) else head + data
    _structured(blob)


def sarif(data: bytes) -> None:
    """SARIF: the bytes behind a SARIF head, so the JSON reader takes them."""
    head = b'{"version": "2.1.0", "runs": '
    blob = data if sarif_parser.sniff(data) else head + data
    _structured(blob)


def cargo_json(data: bytes) -> None:
    """cargo JSON lines: each input line behind a compiler-message prefix."""
    prefix = b'{"reason":"compiler-message","message":'
    lines = [
        ln if b'"reason":"compiler-message"' in ln else prefix + ln + b"}"
        for ln in data.split(b"\n")
    ]
    blob = b"\n".join(lines)
    c = Classifier(Options(cwd=_CWD, exit_code=101, rules=_CARGO_RULES))
    c.feed(blob)
    records = c.close()
    assert not c.rule_errors, f"a rule raised: {c.rule_errors}"
    check_records(records, blob)


TARGETS: dict[str, Callable[[bytes], None]] = {
    "classifier": classify_text,
    "junit": junit,
    "sarif": sarif,
    "cargo_json": cargo_json,
}

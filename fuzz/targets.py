"""Fuzz targets: one function per input format, each taking raw bytes.

The output targets (classifier, junit, sarif, cargo_json) classify the bytes
the way `faultlens classify` would and then check the invariants every caller
relies on:

* nothing raises (a parser that meets junk falls back or gives up quietly);
* every record survives a JSON round trip through the FailureRecord schema;
* every `log_line` points at a line that exists in the input.

`early_init` reads the bytes as the server's first message with the early
`initialize` reader (server/fast_init.py) and the framing every later message
goes through (server/framing.py): nothing raises, nothing read is lost or
invented on the way to the full server, an answer is only ever an
`initialize` result for that request's id.  `config` writes the bytes as a
project configuration (`.faultlens.toml`, and as `[tool.faultlens]` in a
pyproject.toml) and loads it (classifier/config.py): nothing raises, every
problem is a one-line message, the rules it gives classify a line.

The same functions are driven by atheris (`fuzz/run.sh`, coverage guided)
and by tests/security/test_fuzz_targets.py (a few hundred seeded inputs
under plain pytest, so CI exercises them without a fuzzer).
"""

from __future__ import annotations

import io
import itertools
import json
import shutil
import tempfile
from collections.abc import Callable
from pathlib import Path

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
        again = FailureRecord.from_json(json.loads(json.dumps(rec.to_json())))
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


# -- the server's first message ----------------------------------------------------------
def _snapshot() -> dict[str, object]:
    from faultlens.server import fast_init

    snap = fast_init.load_snapshot()  # None when pygls differs from the snapshot's
    if snap is None:
        snap = json.loads(fast_init.SNAPSHOT.read_text(encoding="utf-8"))
    return snap


_SNAPSHOT = _snapshot()


def early_init(data: bytes) -> None:
    """The early `initialize` reader, then the framing of every later message."""
    from faultlens.server.fast_init import Prefixed, answer, read_message
    from faultlens.server.framing import MAX_LINE, read_frame_sync

    stream = io.BytesIO(data)
    raw, msg = read_message(stream)
    rest = stream.read()
    assert raw + rest == data, "the early reader lost or invented bytes"
    sent = answer(msg, _SNAPSHOT)  # type: ignore[arg-type]
    if sent is not None:
        assert msg is not None and msg.get("method") == "initialize"
        assert sent["id"] == msg["id"] and "capabilities" in sent["result"]
        json.dumps(sent)
    # the full server reads the same bytes again, message by message, to the end
    again = Prefixed(raw, io.BytesIO(rest))  # type: ignore[arg-type]
    seen = bytearray()
    for _ in range(len(data) + 2):
        got, headers, body = read_frame_sync(again)
        seen += got
        if not got:
            break
        assert headers.length is None or headers.length >= 0
        assert body is None or len(body) == headers.length
        assert all(len(p) < MAX_LINE + 200 for p in headers.problems)
    else:
        raise AssertionError("the framing did not reach the end of the input")
    assert bytes(seen) == data, "the framing lost or invented bytes"


# -- the project configuration ----------------------------------------------------------
_CONFIG_DIRS = itertools.count()
_PROBE = b"ERR app.py:3: boom\nsrc/x.ts(1,2): error TS2304: Cannot find name 'y'.\n"


def config(data: bytes) -> None:
    """A project configuration, as .faultlens.toml and as [tool.faultlens]."""
    from faultlens.classifier.config import effective_rules, load_config

    base = Path(_CWD) / f"config-{next(_CONFIG_DIRS)}"
    try:
        for name, blob in (
            (".faultlens.toml", data),
            ("pyproject.toml", b"[tool.faultlens]\n" + data),
        ):
            folder = base / name.strip(".")
            folder.mkdir(parents=True)
            (folder / name).write_bytes(blob)
            cfg = load_config(folder)
            assert all(isinstance(e, str) and "\n" not in e.strip() for e in cfg.errors), cfg.errors
            rules, errors = effective_rules(folder)
            assert errors == cfg.errors
            c = Classifier(Options(cwd=str(folder), exit_code=1, rules=rules))
            c.feed(_PROBE)
            check_records(c.close(), _PROBE)
    finally:
        shutil.rmtree(base, ignore_errors=True)


TARGETS: dict[str, Callable[[bytes], None]] = {
    "classifier": classify_text,
    "junit": junit,
    "sarif": sarif,
    "cargo_json": cargo_json,
    "early_init": early_init,
    "config": config,
}

# The files that seed each target (globs relative to the repository).
SEEDS: dict[str, list[str]] = {
    "classifier": ["tests/samples/*/*/output.txt"],
    "junit": ["tests/samples/**/*.xml"],
    "sarif": ["tests/samples/**/*.sarif"],
    "cargo_json": ["tests/samples/cargo_json/*/output.txt", "tests/samples/rust/*/output.txt"],
    "early_init": ["fuzz/seeds/early_init/*"],
    "config": ["fuzz/seeds/config/*"],
}

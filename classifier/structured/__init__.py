"""Structured inputs (JUnit XML, SARIF, linters' checkstyle XML and JSON
reports, cargo JSON, TAP, GitHub workflow commands), detected from the
content and preferred over text.

`classify_path` and `classify_stream` look at the first bytes of the input;
when a structured parser claims it, that parser reads it, otherwise the
streaming text engine does.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import IO, TYPE_CHECKING

from ..engine import CHUNK, Classifier, Options
from .parsing import Parser as Parser  # re-exported: the parsers type-check with it
from .parsing import Sniffer

if TYPE_CHECKING:
    from ..record import FailureRecord

SNIFF_BYTES = 64 * 1024


SNIFFERS: list[Sniffer] = []


def _register_builtin() -> None:
    from . import junit, lint_reports, sarif

    SNIFFERS.extend(
        [junit.sniff, sarif.sniff, lint_reports.sniff_checkstyle, lint_reports.sniff_json]
    )


_register_builtin()


def feed_stream(stream: IO[bytes], c: Classifier) -> None:
    """Feed a whole binary stream into `c`: to the structured parser that
    claims its head, else to the text engine."""
    head = stream.read(SNIFF_BYTES)
    for sniff in SNIFFERS:
        parser = sniff(head)
        if parser is not None:
            parser(head, stream, c)
            return
    c.feed(head)
    while data := stream.read(CHUNK):
        c.feed(data)


RuleErrorSink = Callable[[str, str], None]  # (rule id, what went wrong)


def classify_stream(
    stream: IO[bytes], options: Options, on_rule_error: RuleErrorSink | None = None
) -> list[FailureRecord]:
    """Classify a binary stream, structured or text; the rules that failed
    (a project pattern that overran its time limit) go to `on_rule_error`."""
    c = Classifier(options)
    feed_stream(stream, c)
    records = c.close()
    if on_rule_error is not None:
        for rule_id, error in c.rule_errors:
            on_rule_error(rule_id, error)
    return records


def classify_path(
    path: str | os.PathLike[str], options: Options, on_rule_error: RuleErrorSink | None = None
) -> list[FailureRecord]:
    """Classify a file, structured or text."""
    with open(path, "rb") as fh:
        return classify_stream(fh, options, on_rule_error)


def classify_file(
    path: str | os.PathLike[str], options: Options | None = None
) -> list[FailureRecord]:
    """Classify a file (text output or a structured report), streaming it."""
    return classify_path(path, options or Options())

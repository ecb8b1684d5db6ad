"""Structured inputs (JUnit XML, SARIF, linters' checkstyle XML and JSON
reports, cargo JSON, TAP, GitHub workflow commands), detected from the
content and preferred over text.

`Recogniser` is the one entry every output goes through, whole or fed in
pieces as a command prints it: it looks at the first SNIFF_BYTES of the
output; when a structured parser claims them, that parser reads the whole
output at the end, otherwise the streaming text engine reads it as it comes.
`classify_path` and `classify_stream` are the same for a file or a stream.
"""

from __future__ import annotations

import os
import tempfile
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


def parser_for(head: bytes) -> Parser | None:
    """The structured parser that claims an output's head, if one does."""
    for sniff in SNIFFERS:
        parser = sniff(head)
        if parser is not None:
            return parser
    return None


SPOOL_IN_MEMORY = 16 * 1024 * 1024  # a structured report past this waits on disk


class Recogniser:
    """Output fed in pieces (`feed`), then `close()` for the records: a
    structured report (recognised from the output's first SNIFF_BYTES) goes
    to its parser at the end, any other output to the text engine as it comes.

    It wraps a text `Classifier` (`classifier`), which a structured parser
    feeds too (a report that turns out not to be one is classified as text);
    its options, secrets and errors are the wrapped classifier's.
    """

    def __init__(
        self, options: Options | None = None, classifier: Classifier | None = None
    ) -> None:
        self.classifier = classifier if classifier is not None else Classifier(options)
        self._head: bytearray | None = bytearray()  # None once decided
        self._parser: Parser | None = None
        self._report: IO[bytes] | None = None  # the rest of a structured report

    @property
    def options(self) -> Options:
        return self.classifier.options

    @property
    def secrets(self) -> set[str]:
        return self.classifier.secrets

    @property
    def rule_errors(self) -> list[tuple[str, str]]:
        return self.classifier.rule_errors

    @property
    def config_errors(self) -> list[str]:
        return self.classifier.config_errors

    @property
    def structured(self) -> bool:
        """Whether the output is a structured report (known once decided)."""
        return self._parser is not None

    def feed(self, data: bytes) -> None:
        if self._head is None:
            if self._report is not None:
                self._report.write(data)
            else:
                self.classifier.feed(data)
            return
        self._head += data
        if len(self._head) >= SNIFF_BYTES:
            self._decide()

    def _decide(self) -> None:
        assert self._head is not None
        buffered, self._head = bytes(self._head), None
        head = buffered[:SNIFF_BYTES]
        self._parser = parser_for(head)
        if self._parser is None:
            if buffered:
                self.classifier.feed(buffered)
            return
        self._report = tempfile.SpooledTemporaryFile(max_size=SPOOL_IN_MEMORY)  # noqa: SIM115
        self._report.write(buffered)

    def close(self) -> list[FailureRecord]:
        self.end()
        return self.classifier.close()

    def end(self) -> None:
        """The output ended: a structured report goes to its parser (the
        wrapped classifier is left open)."""
        if self._head is not None:
            self._decide()
        if self._parser is not None and self._report is not None:
            report, self._report = self._report, None
            try:
                report.seek(0)
                head = report.read(SNIFF_BYTES)
                self._parser(head, report, self.classifier)
            finally:
                report.close()


def feed_stream(stream: IO[bytes], c: Classifier) -> None:
    """Feed a whole binary stream into `c` (left open) through the `Recogniser`:
    to the structured parser that claims its head, else to the text engine."""
    r = Recogniser(classifier=c)
    while data := stream.read(CHUNK):
        r.feed(data)
    r.end()


RuleErrorSink = Callable[[str, str], None]  # (rule id, what went wrong)


def classify_stream(
    stream: IO[bytes], options: Options, on_rule_error: RuleErrorSink | None = None
) -> list[FailureRecord]:
    """Classify a binary stream, structured or text; the rules that failed
    (a project pattern that overran its time limit) go to `on_rule_error`."""
    c = Classifier(options)
    feed_stream(stream, c)  # the one entry: Recogniser
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

"""The CLI's sink for what faultlens itself prints: every text written to
`sys.stdout` / `sys.stderr` while a subcommand runs passes the redactor
(classifier/redact.py `scrub`), line by line, whoever wrote it.  The binary
`.buffer` under each stream is left as it is: it carries the output of the
user's own command, which `faultlens run` passes through unchanged like `tee`.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from typing import Any, TextIO

from faultlens.classifier.redact import redact, scrub

MAX_PENDING = 64 * 1024  # text held while waiting for the end of its line


def scrub_lines(text: str) -> str:
    """`text` redacted line by line (a line printed again is redacted once:
    the redactor caches short texts), but as a whole when it holds a private
    key, whose block spans lines.  A whole JSON answer is one write: read as
    one text, every pattern ran over all of it (0.4 s for 600 KB)."""
    if "PRIVATE KEY" in text or text.count("\n") < 2:
        return redact(text)
    return "".join(redact(line) for line in text.splitlines(keepends=True))


class ScrubbedStream:
    """A text stream whose writes are redacted a whole line at a time (a
    secret written in two pieces is still one line when it is masked)."""

    def __init__(self, raw: TextIO) -> None:
        self.raw = raw
        self._pending = ""

    def write(self, text: str) -> int:
        self._pending += text
        cut = self._pending.rfind("\n") + 1
        if cut == 0 and len(self._pending) < MAX_PENDING:
            return len(text)
        if cut == 0:
            cut = len(self._pending)
        done, self._pending = self._pending[:cut], self._pending[cut:]
        self.raw.write(scrub_lines(done))
        return len(text)

    def flush(self) -> None:
        if self._pending:
            done, self._pending = self._pending, ""
            self.raw.write(scrub_lines(done))
        self.raw.flush()

    @property
    def buffer(self) -> Any:
        self.flush()  # what faultlens said comes before the command's bytes
        return self.raw.buffer

    def __getattr__(self, name: str) -> Any:
        return getattr(self.raw, name)


@contextmanager
def scrubbed_output() -> Iterator[None]:
    """sys.stdout and sys.stderr pass the redactor for the duration."""
    out, err = sys.stdout, sys.stderr
    s_out, s_err = ScrubbedStream(out), ScrubbedStream(err)
    sys.stdout, sys.stderr = s_out, s_err
    try:
        yield
    finally:
        for s in (s_out, s_err):
            with suppress(OSError, ValueError):
                s.flush()
        sys.stdout, sys.stderr = out, err


class ScrubbingFilter:
    """A logging filter that redacts each record's message (the log's sink)."""

    def filter(self, record: Any) -> bool:
        message = record.getMessage()
        shown = scrub(message)
        if shown != message:
            record.msg, record.args = shown, None
        if record.exc_info and not record.exc_text:
            import logging

            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = scrub(record.exc_text)
        return True


def scrub_logging() -> None:
    """Every handler of the root logger redacts what it writes."""
    import logging

    for handler in logging.getLogger().handlers:
        handler.addFilter(ScrubbingFilter())

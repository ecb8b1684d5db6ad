"""Output on its way into a log file (the server's `.faultlens/runs/*.log`),
redacted line by line.

Every line is kept (a private key's body lines are masked one by one), so
line numbers in the log stay those of the output; bytes that are not part of
a secret are written unchanged.  Only the lines holding literal text some
detector needs, or a secret of the vault, are decoded and redacted: one
Aho-Corasick scan of each chunk finds them (the log redactor's cost is that
scan, 260-450 MB/s).

The vault is the classifier's (`Classifier.secrets`), read when lines are
written: a secret a scanner names (trufflehog's `Raw result:`) is masked in
the log as in the records.  A scanner may name it a few lines after the
line that shows it (gitleaks prints `Finding:` before `Secret:`), so a
redactor made with `hold=N` keeps the last N lines back until more output
(or `close()`) comes, and the caller feeds the classifier first.  A secret
named later still, after its line was written, is in `late`; the caller
then rewrites the log with `scrub_file`.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections import deque
from collections.abc import Collection, Iterable
from functools import lru_cache
from pathlib import Path
from typing import Any

from .detectors import literals, log_literal
from .lazyre import lazy_compile
from .redact import MIN_FRAGMENT, mask, redact

_KEY_BEGIN = lazy_compile(r"-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----")
_KEY_END = lazy_compile(r"-----END (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----")
MAX_PENDING = 1 << 20  # a longer unfinished line is redacted and written as it is
HOLD_BYTES = 1 << 20  # at most this much output is held back (whatever `hold` says)


# Characters that (?i) matches to an ASCII letter of a secret word.
_FOLDS = tuple(c.encode() for c in "\u017f\u212a\u0131\u0130")


# The start of each secret word of redact._ASSIGN, in every ASCII case (what
# (?i) matches when the text has none of _FOLDS): shortened where the full
# word would need hundreds of spellings (a line with the start is only looked
# at); case-insensitive detector literals likewise.
_WORD_STARTS = ("passw", "passp", "pwd", "secre", "key", "token", "crede")


def _spellings(word: str) -> list[bytes]:
    """`word` in every mix of ASCII upper and lower case."""
    out = [b""]
    for ch in word:
        cases = {ch.lower(), ch.upper()}
        out = [o + c.encode() for o in out for c in sorted(cases)]
    return out


@lru_cache(maxsize=1)
def _needs_redact() -> Any:
    """One automaton of _FOLDS (pattern indexes 0-3) and the literal text
    without which no detector or assignment matches."""
    from ahocorasick_rs import BytesAhoCorasick, Implementation

    patterns: dict[bytes, None] = dict.fromkeys([*_FOLDS, b"PRIVATE KEY"])
    for lit, folded in literals():
        for p in _spellings(log_literal(lit)) if folded else [lit.encode()]:
            patterns[p] = None
    for w in _WORD_STARTS:
        patterns.update(dict.fromkeys(_spellings(w)))
    return BytesAhoCorasick(list(patterns), implementation=Implementation.DFA)


def _vault_marks(raw: bytes, vault: Iterable[str]) -> list[int]:
    """Where a vault secret, or a head or tail of one that a truncating
    printer may have left, is in `raw`."""
    marks = []
    for secret in vault:
        s = secret.encode("utf-8", "surrogateescape")
        for needle in {s, s[:MIN_FRAGMENT], s[-MIN_FRAGMENT:]}:
            at = raw.find(needle)
            while at >= 0:
                marks.append(at)
                at = raw.find(needle, at + len(needle))
    return marks


class LogRedactor:
    """Feed chunks, then `close()`; each returns the bytes to write.
    `vault`: the live set of scanner-named secrets; `hold`: lines kept back."""

    def __init__(self, vault: Collection[str] = (), *, hold: int = 0) -> None:
        self._pending = b""
        self._in_key = False
        self._vault = vault
        self._hold = hold
        self._held: deque[tuple[bytes, int]] = deque()  # (chunk, its line count)
        self._held_lines = 0
        self._held_bytes = 0
        self._known: set[str] = set()  # vault secrets already applied
        self._written = False
        self.late: set[str] = set()  # named after a line that may show them was written

    def feed(self, data: bytes) -> bytes:
        buf = self._pending + data
        cut = buf.rfind(b"\n") + 1
        if len(buf) - cut > MAX_PENDING:
            cut = len(buf)
        self._pending = buf[cut:]
        complete = buf[:cut]
        if not self._hold:
            return self._release(complete)
        if complete:
            n = complete.count(b"\n")
            self._held.append((complete, n))
            self._held_lines += n
            self._held_bytes += len(complete)
        out = []
        while self._held and (
            self._held_lines - self._held[0][1] >= self._hold or self._held_bytes > HOLD_BYTES
        ):
            chunk, n = self._held.popleft()
            self._held_lines -= n
            self._held_bytes -= len(chunk)
            out.append(chunk)
        return self._release(b"".join(out)) if out else b""

    def close(self) -> bytes:
        held = b"".join(c for c, _ in self._held)
        self._held.clear()
        self._held_lines = self._held_bytes = 0
        rest, self._pending = self._pending, b""
        return self._release(held + rest)

    def _release(self, raw: bytes) -> bytes:
        if not raw:
            return raw
        if self._vault:
            new = set(self._vault) - self._known
            if new:
                if self._written:
                    self.late |= new
                self._known |= new
        self._written = True
        return self._lines(raw)

    def _lines(self, raw: bytes) -> bytes:
        """Only the lines holding literal text some secret pattern needs (and
        the lines of a private key block) go through `_redact_lines`; the rest
        are copied as they are.  A chunk with a character that (?i) folds onto
        an ASCII letter (ſ, K, ı, İ) takes the line-by-line path.  When no
        line changed, the chunk itself is returned (no copy)."""
        found = _needs_redact().find_matches_as_indexes(raw)
        if any(idx < len(_FOLDS) for idx, _, _ in found):
            return self._redact_lines(raw)
        marks = [s for _, s, _ in found]
        if self._known:
            marks = sorted(marks + _vault_marks(raw, self._known))
        out: list[bytes] = []
        changed = False
        pos, n, i = 0, len(raw), 0
        while pos < n:
            if self._in_key:  # every line of a key block
                end = raw.find(b"\n", pos) + 1 or n
                line = raw[pos:end]
                done = self._redact_lines(line)
                changed = changed or done != line
                out.append(done)
                pos = end
                continue
            while i < len(marks) and marks[i] < pos:
                i += 1
            if i == len(marks):
                out.append(raw[pos:])
                break
            mark = marks[i]
            start = raw.rfind(b"\n", pos, mark) + 1 or pos
            end = raw.find(b"\n", mark) + 1 or n
            out.append(raw[pos:start])
            line = raw[start:end]
            done = self._redact_lines(line)
            changed = changed or done != line
            out.append(done)
            pos = end
        return b"".join(out) if changed else raw

    def _redact_lines(self, raw: bytes) -> bytes:
        vault = self._known
        out = []
        for line in raw.decode("utf-8", "surrogateescape").splitlines(keepends=True):
            body = line.rstrip("\r\n")
            end = line[len(body) :]
            if self._in_key:
                if _KEY_END.search(body):
                    self._in_key = False
                elif body.strip():
                    body = mask(body.strip())
            else:
                begin = _KEY_BEGIN.search(body)
                if begin and not _KEY_END.search(body, begin.end()):
                    self._in_key = True
                    body = body[: begin.end()] + redact(body[begin.end() :], vault)
                    body = redact(body[: begin.start()], vault) + body[begin.start() :]
                else:
                    body = redact(body, vault)
            out.append(body + end)
        return "".join(out).encode("utf-8", "surrogateescape")


def scrub_file(path: Path, secrets: Collection[str]) -> None:
    """Mask `secrets` (and their heads and tails) in a written log, line by
    line, replacing the file atomically; a log without them is left alone."""
    needles: list[bytes] = []
    for s in secrets:
        b = s.encode("utf-8", "surrogateescape")
        needles += {b, b[:MIN_FRAGMENT], b[-MIN_FRAGMENT:]}
    with open(path, "rb") as src:
        if not any(n in chunk for chunk in iter(lambda: src.read(1 << 20), b"") for n in needles):
            return
        src.seek(0)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".scrub-", suffix=".log")
        try:
            with os.fdopen(fd, "wb") as dst:
                for line in src:
                    if any(n in line for n in needles):
                        text = line.decode("utf-8", "surrogateescape")
                        line = redact(text, secrets).encode("utf-8", "surrogateescape")
                    dst.write(line)
            os.replace(tmp, path)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
            raise

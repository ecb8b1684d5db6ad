"""Conflict markers in a file's text: one hunk per conflicted region.

Git leaves a conflicted file with hunks like::

    <<<<<<< HEAD
    ours
    ||||||| base          (only with merge.conflictStyle=diff3 / zdiff3)
    common ancestor
    =======
    theirs
    >>>>>>> feature

`scan` is the one parser of conflict markers (pure: text in, hunks out,
1-based line numbers, lines ended by \\n, \\r\\n or \\r only, as LSP and git
count them).  The classifier uses it to place a "CONFLICT" record on the
first marker line of the file; the recipes (recipes/conflicts.py: the
"accept current / incoming / both" edits, 0-based for LSP) and the language
server read the same hunks through it; `hunk_records` turns a file's hunks
into one record each (rule ``conflicts.markers``) for a file that is open
with markers in it.  A marker only counts at the start of a line and
with exactly seven marker characters followed by a space or the line end, as
git writes them (`merge.conflictMarkerSize` aside); an unterminated hunk is
not reported.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .fingerprint import fingerprint
from .lazyre import lazy_compile
from .record import FailureRecord
from .taxonomy import FailureType, category

_OURS = lazy_compile(r"^<{7}(?: (?P<label>.*))?$")
_BASE = lazy_compile(r"^\|{7}(?: (?P<label>.*))?$")
_SEP = lazy_compile(r"^={7}$")
_THEIRS = lazy_compile(r"^>{7}(?: (?P<label>.*))?$")
_LINE_END = lazy_compile(r"\r\n|\r|\n")


def split_lines(text: str) -> list[str]:
    """The text's lines with their endings kept (\\n, \\r\\n or \\r: LSP's lines)."""
    out: list[str] = []
    pos = 0
    for m in _LINE_END.finditer(text):
        out.append(text[pos : m.end()])
        pos = m.end()
    if pos < len(text):
        out.append(text[pos:])
    return out


@dataclass(frozen=True, slots=True)
class ConflictHunk:
    """One conflicted region; every line number is 1-based."""

    start: int  # the <<<<<<< line
    separator: int  # the ======= line
    end: int  # the >>>>>>> line
    base: int | None = None  # the ||||||| line (diff3 style)
    ours_label: str = ""
    theirs_label: str = ""
    base_label: str = ""

    @property
    def ours(self) -> tuple[int, int]:
        """First and last line of the current ("ours") side; empty when last < first."""
        return self.start + 1, (self.base or self.separator) - 1

    @property
    def theirs(self) -> tuple[int, int]:
        """First and last line of the incoming ("theirs") side."""
        return self.separator + 1, self.end - 1

    def to_hint(self) -> dict[str, Any]:
        """JSON-ready description, for a record's hint."""
        out: dict[str, Any] = {
            "start": self.start,
            "separator": self.separator,
            "end": self.end,
            "ours": self.ours_label,
            "theirs": self.theirs_label,
        }
        if self.base is not None:
            out["base"] = self.base
            out["base_label"] = self.base_label
        return out


def scan(text: str) -> list[ConflictHunk]:
    """Every complete conflict hunk in `text`, in order."""
    hunks: list[ConflictHunk] = []
    start: int | None = None
    base: int | None = None
    sep: int | None = None
    labels = {"ours": "", "base": ""}
    for no, raw in enumerate(split_lines(text), start=1):
        line = raw.rstrip("\r\n")
        if not line or line[0] not in "<|=>":
            continue
        if m := _OURS.match(line):
            # A new <<<<<<< restarts: an unterminated hunk before it is dropped.
            start, base, sep = no, None, None
            labels = {"ours": m.group("label") or "", "base": ""}
        elif start is None:
            continue
        elif sep is None and base is None and (m := _BASE.match(line)):
            base = no
            labels["base"] = m.group("label") or ""
        elif sep is None and _SEP.match(line):
            sep = no
        elif sep is not None and (m := _THEIRS.match(line)):
            hunks.append(
                ConflictHunk(
                    start=start,
                    separator=sep,
                    end=no,
                    base=base,
                    ours_label=labels["ours"],
                    theirs_label=m.group("label") or "",
                    base_label=labels["base"],
                )
            )
            start, base, sep = None, None, None
    return hunks


def first_marker_line(text: str) -> int | None:
    """The line of the first complete hunk's <<<<<<< marker, if any."""
    hunks = scan(text)
    return hunks[0].start if hunks else None


def has_markers(text: str) -> bool:
    """Whether the text holds at least one complete conflict hunk."""
    return bool(scan(text))


def hunk_records(
    file: str, text: str, *, task: str | None = None, log_file: str | None = None
) -> list[FailureRecord]:
    """One branch_divergence record per conflict hunk of a file, for the
    editor (a file opened with markers in it) and the recipes' "accept
    current / incoming / both" actions.  The id hashes the hunk's content,
    not its lines, so it survives edits above the hunk."""
    lines = [ln.rstrip("\r\n") for ln in split_lines(text)]
    cat = category(FailureType.BRANCH_DIVERGENCE)
    out: list[FailureRecord] = []
    for n, h in enumerate(scan(text), start=1):
        body = "\n".join(lines[h.start : h.end - 1])
        signal = f"conflict in {file}: <<<<<<< {h.ours_label or 'ours'} / >>>>>>> {h.theirs_label or 'theirs'}"
        out.append(
            FailureRecord(
                failure_type=FailureType.BRANCH_DIVERGENCE,
                severity=cat.severity,
                signal=signal,
                source_file=file,
                source_line=h.start,
                source_column=1,
                end_line=h.end,
                auto_recoverable=cat.auto_recoverable,
                recipe=cat.recipe,
                id=fingerprint(FailureType.BRANCH_DIVERGENCE.value, "conflict-markers", file, body),
                tool="git",
                code="conflict-markers",
                message=f"unresolved conflict hunk {n} in {file}",
                rule="conflicts.markers",
                task=task,
                log_file=log_file,
                hint={"files": [file], "hunk": h.to_hint(), "hunk_index": n},
            )
        )
    return out

"""What every output format shares: the render context, severities, and the
planned edits of the compile recipe (as fixes / suggestions)."""

from __future__ import annotations

import logging
import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from faultlens.classifier.record import FailureRecord

log = logging.getLogger(__name__)

TOOL_NAME = "faultlens"
TOOL_URL = "https://example.invalid/faultlens"
MAX_PLANNED = 50  # records whose fixes are planned (planning reads the workspace)
MAX_FILE_BYTES = 4 * 1024 * 1024  # a file read to turn a column into bytes


@dataclass(frozen=True)
class Edit:
    """One planned replacement, 1-based lines and character columns (end exclusive)."""

    path: str
    start_line: int
    start_col: int
    end_line: int
    end_col: int
    text: str


@dataclass(frozen=True)
class Fix:
    title: str
    edits: tuple[Edit, ...]


@dataclass
class Context:
    """What a format may know besides the records."""

    cwd: str = "."
    command: Sequence[str] | None = None  # the command that produced the output, when given
    plan_fixes: bool = True
    _fixes: dict[str, Fix | None] = field(default_factory=dict)

    def fix(self, r: FailureRecord) -> Fix | None:
        """The compile recipe's planned edits for the record (read-only), if any."""
        if not self.plan_fixes or r.failure_type.value != "compile" or not r.source_file:
            return None
        if r.id in self._fixes:
            return self._fixes[r.id]
        if len(self._fixes) >= MAX_PLANNED:
            return None
        found = self._fixes[r.id] = _plan(r, self)
        return found


def _plan(r: FailureRecord, ctx: Context) -> Fix | None:
    """recipes.single_attempt.plan(), which reads files and writes nothing; a command
    is always given so that no ledger is looked up (or created)."""
    try:
        from faultlens.recipes.model import Plan, Workspace
        from faultlens.recipes.single_attempt import plan

        command = list(ctx.command) if ctx.command else ["faultlens", "classify"]
        found = plan(r, Workspace.at(ctx.cwd), command=command, cwd=".")
    except Exception as exc:  # a format never fails for want of a fix
        log.debug("no fix planned for %s: %s", r.id, exc)
        return None
    if not isinstance(found, Plan) or not found.edits:
        return None
    edits = tuple(
        Edit(e.path, e.start_line + 1, e.start_col + 1, e.end_line + 1, e.end_col + 1, e.new_text)
        for e in found.edits
    )
    return Fix(found.title, edits)


def byte_column(path: str, cwd: str, line: int, col: int) -> int:
    """A 1-based character column as a 1-based UTF-8 byte column (reviewdog's
    unit), reading the line from the file when it can; else the same number."""
    full = path if os.path.isabs(path) else os.path.join(cwd, path)
    try:
        if os.path.getsize(full) > MAX_FILE_BYTES:
            return col
        with open(full, encoding="utf-8", errors="surrogateescape") as fh:
            for n, text in enumerate(fh, 1):
                if n == line:
                    return len(text[: col - 1].encode("utf-8", "surrogateescape")) + 1
    except (OSError, ValueError):
        pass
    return col


def is_error(r: FailureRecord) -> bool:
    return r.severity.value == "blocking" and not r.hint.get("warning")


def level(r: FailureRecord) -> str:
    """error / warning: blocking failures are errors, degraded ones (and kept warnings) warnings."""
    return "error" if is_error(r) else "warning"


def first_line(text: str) -> str:
    return text.strip().splitlines()[0] if text.strip() else ""

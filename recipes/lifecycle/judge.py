"""The verify stage's judgement, made the same way on every path (a single
failure's attempt, one run's batch, the editor's fix, a watcher's cycle).
Pure: records in, a judgement out.

- Recovered: the failure is no longer reported by the re-run, and the re-run
  reports no failure the run had not reported (when those are known).
- A wrong fix: the re-run reports the same failure again, or a new failure in
  a file the fix edited (its location or a frame of its traceback).  Its edit
  is undone at once (lifecycle/undo.py).
"""

from __future__ import annotations

import posixpath
from collections.abc import Collection, Sequence
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING

from ..rerun_proof import base_id

if TYPE_CHECKING:
    from faultlens.classifier.record import FailureRecord


@dataclass(slots=True)
class Judgement:
    """What a re-run proved about an attempt."""

    recovered: bool
    reason: str
    still: list[FailureRecord] = field(default_factory=list)  # the failures, still reported
    new: list[FailureRecord] = field(default_factory=list)  # reported now, not before
    wrong: FailureRecord | None = None  # what shows the fix was wrong (undo it)


def judge(
    targets: Collection[str],
    records: Sequence[FailureRecord],
    *,
    known: Collection[str] | None = None,
    edited: Collection[str] = (),
    cwd: str = ".",
    root: Path | None = None,
    again: str = "when the command was run again",
    brings: str = "the command now reports",
) -> Judgement:
    """Judge a re-run's `records` for the failures `targets` (ids).

    `known`: the ids the run had reported (None: unknown, nothing counts as
    new); `edited`: the workspace-relative files the fix wrote; `cwd` (relative
    to `root`, the workspace) is where the re-run's relative paths start."""
    wanted = {base_id(t) for t in targets}
    before = None if known is None else {base_id(k) for k in known} | wanted
    still = [r for r in records if base_id(r.id) in wanted]
    new = [r for r in records if before is not None and base_id(r.id) not in before]
    files = {posixpath.normpath(f) for f in edited}
    wrong = None
    if files:
        wrong = still[0] if still else next((r for r in new if _names(r, files, cwd, root)), None)
    if still:
        return Judgement(False, f"still reported {again}: {still[0].signal}", still, new, wrong)
    if new:
        more = f" and {len(new) - 1} more" if len(new) > 1 else ""
        reason = f"gone, but {brings} a new failure: {new[0].signal}{more}"
        return Judgement(False, reason, still, new, wrong)
    return Judgement(True, f"no longer reported {again}")


def _names(rec: FailureRecord, files: set[str], cwd: str, root: Path | None) -> bool:
    """Whether the record is located in one of `files`, or a frame of it is."""
    paths = [rec.source_file or "", *(loc.file for loc in rec.related)]
    return any(_rel(p, cwd, root) in files for p in paths if p)


def _rel(path: str, cwd: str, root: Path | None) -> str:
    p = PurePosixPath(path.replace("\\", "/"))
    if p.is_absolute():
        if root is None:
            return str(p)
        try:
            return p.relative_to(root.as_posix()).as_posix()
        except ValueError:
            return str(p)
    return posixpath.normpath(posixpath.join(cwd or ".", str(p)))

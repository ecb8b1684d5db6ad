"""The failures the server currently knows, per task and per file.

A new run of a task replaces that task's failures from the same *source* (the
command, in its folder, or the log file that produced them): a clean `npm
test` under TASK-7 clears TASK-7's test failures, not the failures its `tsc`
reported.  `replace` returns every file whose failures changed (old files
included, so they get cleared).  A run that
did not finish (stopped, cancelled, timed out) only adds to them (`merge`): it
did not re-check the rest.  No LSP here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from faultlens.classifier.record import FailureRecord

from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from .placement import Placement


@dataclass(slots=True)
class Entry:
    """One failure, where it came from and where it is shown."""

    record: FailureRecord
    task: str
    cwd: Path
    placement: Placement | None
    source: str = ""  # what produced it within its task (a command, a log)


@dataclass(slots=True)
class TaskInfo:
    """How a task's output was produced (to re-run it on retry)."""

    argv: list[str] | None = None
    task: str | None = None  # the user's task name (None: the default task)
    cwd: Path | None = None
    exit_code: int | None = None
    log_path: Path | None = None


@dataclass
class FailureStore:
    """Entries by task, with an index by file path."""

    _by_task: dict[str, list[Entry]] = field(default_factory=dict)
    tasks: dict[str, TaskInfo] = field(default_factory=dict)

    def replace(
        self,
        task: str,
        entries: Iterable[Entry],
        info: TaskInfo | None = None,
        *,
        source: str | None = None,
    ) -> set[Path]:
        """Set the failures of `task` (those of `source` only, when given: its
        other sources' stay, but a failure this source reports again is shown
        once, as this source has it now); return every file whose diagnostics
        changed."""
        new = list(entries)
        old = self._by_task.get(task, [])
        if source is None:
            kept, gone = [], old
        else:
            ids = {e.record.id for e in new}
            kept = [e for e in old if e.source != source and e.record.id not in ids]
            gone = [e for e in old if e.source == source or e.record.id in ids]
        touched = self._paths(gone)
        if kept or new:
            self._by_task[task] = kept + new
        else:
            self._by_task.pop(task, None)
        if info is not None:
            self.tasks[task] = info
        return touched | self._paths(new)

    def merge(self, task: str, entries: Iterable[Entry], info: TaskInfo | None = None) -> set[Path]:
        """Add what a partial run (stopped, cancelled, timed out) found to `task`:
        its failures replace those with the same id, and the ones it did not
        get to re-check stay.  Returns every file whose diagnostics changed."""
        new = list(entries)
        ids = {e.record.id for e in new}
        kept = [e for e in self._by_task.get(task, []) if e.record.id not in ids]
        touched = self.replace(task, kept + new)
        if info is not None and self.tasks.get(task) is None:
            self.tasks[task] = info
        return touched

    def remove_task(self, task: str) -> set[Path]:
        """Forget a task; return the files to clear or re-publish."""
        return self.replace(task, [])

    def clear(self) -> set[Path]:
        """Forget everything."""
        touched = self._paths(self.entries())
        self._by_task.clear()
        return touched

    def remove_paths(self, paths: Iterable[Path]) -> set[Path]:
        """Forget the failures shown in these files, or in files under these
        folders (deleted or renamed); returns the files to clear."""
        gone = set(paths)
        verdict: dict[Path, bool] = {}  # one answer per shown file, not per entry

        def under(p: Path) -> bool:
            found = verdict.get(p)
            if found is None:  # the file or one of its folders is gone: one set look-up each
                found = verdict[p] = p in gone or not gone.isdisjoint(p.parents)
            return found

        touched: set[Path] = set()
        for task, entries in list(self._by_task.items()):
            keep = [e for e in entries if not (e.placement and under(e.placement.path))]
            if len(keep) != len(entries):
                touched |= {e.placement.path for e in entries if e.placement} - self._paths(keep)
                if keep:
                    self._by_task[task] = keep
                else:
                    del self._by_task[task]
        return touched

    def remove(self, failure_id: str) -> set[Path]:
        """Forget one failure (e.g. reviewed)."""
        touched: set[Path] = set()
        for task, entries in list(self._by_task.items()):
            keep = [e for e in entries if e.record.id != failure_id]
            if len(keep) != len(entries):
                touched |= self.replace(task, keep)
        return touched

    def entries(self, task: str | None = None) -> list[Entry]:
        """Every entry (of one task), in insertion order."""
        if task is not None:
            return list(self._by_task.get(task, []))
        return [e for es in self._by_task.values() for e in es]

    def for_path(self, path: Path) -> list[Entry]:
        """Entries shown in the file `path`."""
        return [e for e in self.entries() if e.placement and e.placement.path == path]

    def by_path(self, paths: Iterable[Path]) -> dict[Path, list[Entry]]:
        """The entries shown in each of `paths` (one pass over every entry)."""
        wanted = set(paths)
        out: dict[Path, list[Entry]] = {}
        for e in self.entries():
            if e.placement and e.placement.path in wanted:
                out.setdefault(e.placement.path, []).append(e)
        return out

    def get(self, failure_id: str) -> Entry | None:
        """The entry with this record id (the latest run wins)."""
        for e in reversed(self.entries()):
            if e.record.id == failure_id:
                return e
        return None

    def update(self, failure_id: str, record: FailureRecord) -> Entry | None:
        """Replace the record of a failure (after an attempt); return its entry."""
        entry = self.get(failure_id)
        if entry is not None:
            entry.record = record
        return entry

    def paths(self) -> set[Path]:
        """Every file that shows at least one failure."""
        return self._paths(self.entries())

    @staticmethod
    def _paths(entries: Iterable[Entry]) -> set[Path]:
        return {e.placement.path for e in entries if e.placement is not None}

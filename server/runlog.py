"""What a run and a followed watcher share: the store key of a run, the source
its failures are replaced by, and the streamed run log.

Kept apart from tasks.py (which starts runs) and watchrun.py (which follows
watchers) so that neither imports the other back.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from faultlens.classifier.redact import shown_command

if TYPE_CHECKING:
    from .app import FaultLensServer

LOG_HOLD_LINES = 300  # run-log lines held back until the classifier is past them
MAX_RUN_LOG = 64 * 1024 * 1024  # a run log (a watcher's never ends) stops growing here
CAPPED = b"\n[faultlens: this run log stops at 64 MiB; the command's output goes on]\n"


class CappedLog:
    """A run log that stops at MAX_RUN_LOG bytes, with one line saying so: a
    watcher printing without end (211 MB in 20 s) never fills the disk.  The
    lines written before the cap keep their numbers."""

    def __init__(self, raw: Any, limit: int = MAX_RUN_LOG) -> None:
        self.raw = raw
        self.limit = limit
        self.written = 0
        self.capped = False

    def write(self, data: bytes) -> int:
        if self.capped:
            return len(data)
        room = self.limit - self.written
        if len(data) > room:
            cut = data.rfind(b"\n", 0, room) + 1  # whole lines only
            self.raw.write(data[:cut] + CAPPED)
            self.written += cut + len(CAPPED)
            self.capped = True
            return len(data)
        self.written += len(data)
        return int(self.raw.write(data))

    def flush(self) -> None:
        self.raw.flush()

    def close(self) -> None:
        self.raw.close()

    def __enter__(self) -> CappedLog:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()


def default_key(argv: list[str] | None, task: str | None, cwd: str | None = None) -> str:
    """The store key of a run, which the next run with the same key replaces:
    its task, or the command itself, and the folder (root-relative) it ran in
    when that is not the root, so that a clean `make` in `api` does not clear
    the failures of `make` in `web`.  Secrets are masked: keys are shown (log
    messages, the failure listing, code-action arguments)."""
    base = task or (f"run:{shown_command(argv)}" if argv else "ingest")
    return base if cwd in (None, "", ".") else f"{base} (in {cwd})"


def run_source(argv: list[str] | None, cwd: str | None) -> str:
    """What produced a run's failures within its task: the command in its folder
    (a task's `tsc` and `npm test` each replace only their own failures)."""
    return default_key(argv, None, cwd)


def open_run_log(ls: FaultLensServer, log_path: Path) -> tuple[CappedLog | IO[bytes], bool]:
    """The streamed run log, opened for writing, and whether it is the real one
    (else the state cannot be written: said once, and the output goes nowhere)."""
    from faultlens.recipes.events import unwritable

    try:
        return CappedLog(_open_log_file(log_path)), True
    except OSError as exc:
        unwritable(ls.recipe_workspace(), exc)
        return open(os.devnull, "wb"), False  # the caller closes it


def _open_log_file(path: Path) -> Any:
    """The run log opened for writing.  A symlink or FIFO a checkout left in
    its place is removed (the link itself, never what it points at) and the
    log made afresh, so a committed `runs/<name>.log -> ~/.bashrc` costs
    neither that file nor the run's log."""
    from faultlens.recipes import statefs

    try:
        return statefs.open_for_write(path)
    except statefs.UnsafeStateFile:
        statefs.remove_state(path.parent, path.name)
        return statefs.open_for_write(path)

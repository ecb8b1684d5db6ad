"""One failure type's plans as one batch: the edits of every plan applied
together (the same edit planned twice is made once; an edit that overlaps
another plan's is left out with its plan), the commands run once each, one
verification for all.  And the workspace's apply lock, under which batches are
planned and applied, so two processes never plan against a file the other is
changing.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from types import TracebackType

from .model import CommandStep, Plan, TextEdit, Workspace


@dataclass(slots=True)
class Batch:
    title: str
    edits: list[TextEdit] = field(default_factory=list)
    commands: list[CommandStep] = field(default_factory=list)
    verify: Plan | None = None  # whose verification stands for the batch
    conflicts: list[Plan] = field(default_factory=list)


def _key(e: TextEdit) -> tuple[str, int, int, int, int, str]:
    return (e.path, e.start_line, e.start_col, e.end_line, e.end_col, e.new_text)


def _overlaps(a: TextEdit, b: TextEdit) -> bool:
    """Two edits of one file whose ranges overlap (touching insertions do not)."""
    if a.path != b.path:
        return False
    a0, a1 = (a.start_line, a.start_col), (a.end_line, a.end_col)
    b0, b1 = (b.start_line, b.start_col), (b.end_line, b.end_col)
    if a0 == a1 or b0 == b1:  # an insertion overlaps only a range strictly around it
        point, (lo, hi) = (a0, (b0, b1)) if a0 == a1 else (b0, (a0, a1))
        return lo < point < hi
    return a0 < b1 and b0 < a1


def merge_plans(plans: Sequence[Plan]) -> Batch:
    """The batch of `plans` (in order; the first plan with a verification is the
    batch's)."""
    batch = Batch(title="")
    seen: set[tuple[str, int, int, int, int, str]] = set()
    argvs: set[tuple[str, ...]] = set()
    titles: list[str] = []
    for p in plans:
        mine = [e for e in p.edits if _key(e) not in seen]
        if any(_overlaps(e, other) for e in mine for other in batch.edits):
            batch.conflicts.append(p)
            continue
        for e in mine:
            seen.add(_key(e))
            batch.edits.append(e)
        for c in p.commands:
            if tuple(c.argv) not in argvs:
                argvs.add(tuple(c.argv))
                batch.commands.append(c)
        if p.title not in titles:
            titles.append(p.title)
        if batch.verify is None and (p.verify is not None or p.check is not None):
            batch.verify = p
    batch.title = titles[0] if len(titles) == 1 else f"{len(titles)} fixes: " + "; ".join(titles)
    if batch.verify is None and plans and plans[0] not in batch.conflicts:
        batch.verify = plans[0]
    return batch


class ApplyLock:
    """An exclusive lock on the workspace's edits (`.faultlens/apply.lock`),
    held while a batch is planned and applied (never while a command runs)."""

    def __init__(self, ws: Workspace) -> None:
        self.path = ws.state / "apply.lock"
        self._fd: int | None = None

    def __enter__(self) -> ApplyLock:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        flags = os.O_RDWR | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
        self._fd = os.open(self.path, flags, 0o600)
        fcntl.flock(self._fd, fcntl.LOCK_EX)
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        if self._fd is not None:
            with contextlib.suppress(OSError):
                fcntl.flock(self._fd, fcntl.LOCK_UN)
            os.close(self._fd)
            self._fd = None


@contextlib.contextmanager
def apply_lock(ws: Workspace) -> Iterator[None]:
    with ApplyLock(ws):
        yield

"""One watch board: a watcher's cycles (`tsc --watch`, `vitest --watch`, ...) as
they end, and the fixes waiting for the next one.

`faultlens run --watch` (cli/watch.py) and the language server's watch mode
(server/watchrun.py) each follow a watcher and post every finished cycle
here; a recipe applied to a watcher's failure is verified by the first cycle
that began after the fix was written (`rerun_by_next_cycle`, the recipe
engine's `rerun` hook, which waits on the engine's worker thread), not by
running the watcher again.  Thread-safe: cycles are posted from one thread
(or the event loop), waited for from others."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from faultlens.classifier.record import FailureRecord

    from .model import CommandStep, Rerun

KEPT = 8  # the newest cycles kept (a fix waits for one begun after it)
# A cycle the fix's own write started may begin a moment before the engine asks.
SLACK = 0.5


@dataclass(frozen=True, slots=True)
class WatchCycle:
    """One finished cycle of a watcher."""

    number: int
    began: float  # time.monotonic() when it began
    records: list[FailureRecord]
    tail: str  # the end of its output (a test runner's summary)


@dataclass
class WatchBoard:
    """The cycles so far of one watcher; a verification waits here for the next one."""

    name: str  # the watcher's, for "verified by the watcher's next cycle (tsc)"
    started: float = field(default_factory=time.monotonic)
    cycles: list[WatchCycle] = field(default_factory=list)
    count: int = 0  # cycles finished
    failures: int = 0  # in the last one
    stopped: str | None = None  # why no cycle will come any more
    _cond: threading.Condition = field(default_factory=threading.Condition)

    def add(self, cycle: WatchCycle) -> None:
        with self._cond:
            self.cycles.append(cycle)
            del self.cycles[:-KEPT]
            self.count = cycle.number
            self.failures = len(cycle.records)
            self._cond.notify_all()

    def stop(self, why: str = "the watcher stopped") -> None:
        """The watcher ended: nobody waits for a cycle that will not come."""
        with self._cond:
            self.stopped = why
            self._cond.notify_all()

    def next_after(self, since: float, timeout: float) -> WatchCycle | None:
        """The first cycle begun at or after `since` once it ended; None on
        time-out or stop."""
        deadline = time.monotonic() + timeout
        with self._cond:
            while True:
                for c in self.cycles:
                    if c.began >= since:
                        return c
                left = deadline - time.monotonic()
                if self.stopped is not None or left <= 0:
                    return None
                self._cond.wait(left)


def rerun_by_next_cycle(
    board: WatchBoard, timeout: float, since: float | None = None
) -> Callable[[CommandStep, FailureRecord | None], Rerun]:
    """`RecipeSettings.rerun` for a watcher's failure: its first cycle begun after
    the fix (`since`, else when the engine asks, less SLACK: the fix is on disk
    by then)."""

    def rerun(step: CommandStep, record: FailureRecord | None) -> Rerun:
        from .model import Rerun

        how = f"the watcher's next cycle ({board.name})"
        start = since if since is not None else time.monotonic() - SLACK
        cycle = board.next_after(start, timeout)
        if cycle is None:
            why = board.stopped or f"no cycle of the watcher ended within {timeout:g} s"
            return Rerun(None, [], "", how, error=why)
        return Rerun(0 if not cycle.records else 1, cycle.records, cycle.tail, how)

    return rerun

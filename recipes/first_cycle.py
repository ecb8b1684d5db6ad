"""A watcher run for one answer: its first cycle, then it is stopped.

A caller that wants one answer (an agent's MCP `run ["tsc", "--watch"]`)
cannot wait for a watcher to exit: it never does.  `FirstCycle` stands
between the output pump (recipes/runner.py `pump`) and the classifier: it
splits the output into cycles by the watcher's own banners (the
classifier/cycles.py reader that `faultlens run -- <watcher>` follows),
hands the first cycle to the classifier, and at that cycle's end calls
`stop`, which stops the watcher's process group (`stop_watcher`); the pump
then sees the pipes close and the call answers.  A watcher that ends its
cycles by silence (`Watcher.quiet`) is also ended when it has been quiet
that long.  Nothing after the first cycle's end is classified.

With recovery, the fix is verified the same way (`rerun_first_cycle`, the
`RecipeSettings.rerun` of such a call): the watcher is run again and its
first cycle is the re-run.
"""

from __future__ import annotations

import subprocess
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING

from faultlens.classifier.cycles import CycleReader, Data, End, Piece

if TYPE_CHECKING:
    from faultlens.classifier.cycles import Watcher
    from faultlens.classifier.record import FailureRecord

    from .model import CommandStep, Rerun, Workspace

Sink = Callable[[bytes], None]
STOP_GRACE = 1.0  # seconds between SIGTERM and SIGKILL for the stopped watcher


class FirstCycle:
    """`on_data` for the pump (see the module doc)."""

    def __init__(self, watcher: Watcher, feed: Sink, stop: Callable[[], None]) -> None:
        self.watcher = watcher
        self._feed = feed
        self._stop = stop
        self._reader = CycleReader(watcher)
        self._lock = threading.Lock()
        self._fed = threading.Event()  # output came: the quiet period starts again
        self._closed = threading.Event()
        self.ended = False  # the first cycle ended (and the watcher was stopped)
        if watcher.quiet:
            threading.Thread(target=self._quiet, name="faultlens-first-cycle", daemon=True).start()

    def __call__(self, data: bytes) -> None:
        with self._lock:
            if self.ended:
                return
            pieces = self._reader.feed(data)
        self._fed.set()
        self._handle(pieces)

    def close(self) -> None:
        """The pump is done (the watcher exited or was stopped)."""
        self._closed.set()
        self._fed.set()

    def _quiet(self) -> None:
        assert self.watcher.quiet is not None
        while not self._closed.is_set():
            if self._fed.wait(self.watcher.quiet):
                self._fed.clear()
                continue
            with self._lock:
                if self.ended:
                    return
                pieces = self._reader.quiet()
            self._handle(pieces)

    def _handle(self, pieces: list[Piece]) -> None:
        for p in pieces:
            with self._lock:
                if self.ended:
                    return
                if isinstance(p, Data):
                    self._feed(p.data)
                    continue
                if not isinstance(p, End):
                    continue
                self.ended = True
            self._stop()
            return


def stop_watcher(
    proc: subprocess.Popen[bytes], own_group: bool | None = None
) -> Callable[[], None]:
    """What stops `proc` after its first cycle: its process group when it has
    its own (`own_group`; None: as the calling thread's process scope starts
    them, recipes/procscope.py: an MCP call's do), with what left it, SIGTERM
    first."""
    from .procscope import current
    from .runner import stop

    if own_group is None:
        scope = current()
        own_group = scope is not None and scope.own_group

    def stop_it() -> None:
        if proc.poll() is None:
            stop(proc, own_group=own_group, grace=STOP_GRACE)

    return stop_it


def rerun_first_cycle(
    ws: Workspace, watcher: Watcher
) -> Callable[[CommandStep, FailureRecord | None], Rerun]:
    """`RecipeSettings.rerun` for a watcher run for one answer: the watcher run
    again, stopped after its first cycle, whose failures are the re-run's."""

    def rerun(step: CommandStep, record: FailureRecord | None) -> Rerun:
        from faultlens.classifier.engine import Options
        from faultlens.classifier.structured import Recogniser

        from .model import Rerun
        from .runner import build_env, step_cwd, stream_process

        how = f"the watcher's first cycle ({watcher.name}), run again"
        cwd = step_cwd(ws, step)
        # as recipes/observe.py `recogniser` (which imports this module)
        classifier = Recogniser(Options(cwd=str(cwd), command=list(step.argv)))
        stops: list[Callable[[], None]] = []
        first = FirstCycle(watcher, classifier.feed, lambda: stops[0]())
        try:
            res = stream_process(
                step.argv,
                cwd=cwd,
                env=build_env(ws, step.env),
                timeout=step.timeout,
                on_data=first,
                on_spawn=lambda proc: stops.append(stop_watcher(proc, own_group=True)),
            )
        finally:
            first.close()
        tail = res.tail.decode("utf-8", "replace")
        if res.error:
            return Rerun(None, [], tail, how, error=res.error)
        if first.ended:
            classifier.options.exit_code = None
            records = classifier.close()
            return Rerun(1 if records else 0, records, tail, how)
        if res.timed_out:
            return Rerun(None, [], tail, how, error=f"no cycle ended within {step.timeout:g} s")
        classifier.options.exit_code = res.exit_code
        records = classifier.close()
        return Rerun(res.exit_code, records, tail, how)

    return rerun

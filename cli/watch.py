"""`faultlens run --watch -- CMD`: follow a watcher, classify and report each cycle.

The watcher (`tsc --watch`, `vitest --watch`, `nodemon`, ...) runs in our
process group (Ctrl-C reaches it as from a shell); its output is copied
through as it comes.  A worker thread splits it into cycles by the
watcher's own banners (`faultlens.classifier.cycles`) and classifies each
cycle on its own; at a cycle's end it prints one summary line per cycle
(and the failures), logs `failure.classified` events and a ledger run.
With `--recover`, each cycle's failures get their one attempt (in a thread
of their own, one batch at a time), and a fix is verified by the watcher's
next cycle begun after it, not by running the watcher again.

Exit status: the watcher's own when it exits; 130 after Ctrl-C.
"""

from __future__ import annotations

import queue
import threading
import time
from collections.abc import Sequence
from pathlib import Path
from typing import IO, TYPE_CHECKING

from faultlens.classifier.cycles import Begin, CycleReader, Data, End, Piece
from faultlens.recipes.watch_board import WatchBoard, WatchCycle

if TYPE_CHECKING:
    from faultlens.classifier.cycles import Watcher
    from faultlens.classifier.record import FailureRecord
    from faultlens.classifier.structured import Recogniser
    from faultlens.recipes import Workspace

INTERRUPTED = 130
QUEUE_CHUNKS = 64  # output chunks held for the follower: a full queue makes the pump wait
MAX_CYCLE_BYTES = 8 * 1024 * 1024  # of one cycle classified: a cycle that never ends is cut


def run_watch(
    cmd: Sequence[str],
    *,
    cwd: Path,
    ws: Workspace,
    task: str | None,
    watcher: Watcher,
    recover: bool,
    out: IO[bytes],
    err_bytes: IO[bytes],
    err: IO[str],
    verify_timeout: float = 120.0,
) -> int:
    """Follow the watcher until it exits (its status) or Ctrl-C (130)."""
    from faultlens.classifier.redact import redact_argv
    from faultlens.recipes.runner import build_env, copy_through, spawn, stop_tree_on_signals

    from .runio import say as _say
    from .runio import writer as _writer

    child = spawn(cmd, cwd=cwd, env=build_env(ws, {}))
    if isinstance(child, str):
        _say(err, f"cannot run {redact_argv(list(cmd[:1]))[0]}: {child}")
        return 127
    _say(err, f"watching {' '.join(redact_argv(list(cmd)))} ({watcher.name} cycles; Ctrl-C stops)")
    follower = Follower(cmd, cwd=cwd, ws=ws, task=task, watcher=watcher, err=err)
    follower.recover = recover
    follower.verify_timeout = verify_timeout
    follower.start()
    tree: set[int] = set()
    restore = stop_tree_on_signals(child.pid, tree)
    try:
        code = copy_through(
            child, on_stdout=_writer(out), on_stderr=_writer(err_bytes), on_data=follower.feed
        )
    except KeyboardInterrupt:
        follower.finish(None)
        _say(err, f"stopped after {follower.board_count()} cycle(s)")
        return INTERRUPTED
    finally:
        restore()
        from faultlens.recipes.proctree import reap

        reap(tree)  # what the watcher started and a kill of the watcher alone would leave
    killed = child.returncode is not None and child.returncode < 0
    follower.finish(None if killed else code)  # killed by a signal: its open cycle is dropped
    _say(err, f"the watcher exited {code} after {follower.board_count()} cycle(s)")
    return code


class Follower:
    """The worker thread: cycles, their classifiers, reports, recoveries."""

    def __init__(
        self,
        cmd: Sequence[str],
        *,
        cwd: Path,
        ws: Workspace,
        task: str | None,
        watcher: Watcher,
        err: IO[str],
    ) -> None:
        self.cmd = list(cmd)
        self.cwd = cwd
        self.ws = ws
        self.task = task
        self.watcher = watcher
        self.err = err
        self.recover = False
        self.verify_timeout = 120.0
        self.board = WatchBoard(watcher.name)
        self.reader = CycleReader(watcher)
        # Bounded: a watcher printing faster than the follower classifies waits
        # on its pipe, as it would on a slow terminal (never gigabytes held).
        self._queue: queue.Queue[bytes | None] = queue.Queue(maxsize=QUEUE_CHUNKS)
        self._cycle_bytes = 0
        self._thread = threading.Thread(target=self._work, name="faultlens-watch", daemon=True)
        self._classifier: Recogniser | None = None
        self._began = time.monotonic()
        self._tail = bytearray()
        self._exit: int | None = None
        self._recovering: threading.Thread | None = None

    def start(self) -> None:
        self._thread.start()

    def feed(self, data: bytes) -> None:
        self._queue.put(data)

    def finish(self, exit_code: int | None) -> None:
        """The watcher ended (None: interrupted, its open cycle is dropped)."""
        self._exit = exit_code
        self._queue.put(None)
        self._thread.join()
        self.board.stop()
        if self._recovering is not None:
            self._recovering.join()

    def board_count(self) -> int:
        return self.board.count

    # -- the worker ---------------------------------------------------------------------
    def _new(self) -> Recogniser:
        from faultlens.recipes.observe import recogniser

        return recogniser(self.cwd, task=self.task, command=self.cmd)

    def _work(self) -> None:
        self._classifier = self._new()
        quiet = self.watcher.quiet
        while True:
            try:
                item = self._queue.get(timeout=quiet) if quiet else self._queue.get()
            except queue.Empty:
                pieces: list[Piece] = self.reader.quiet()
            else:
                if item is None:
                    pieces = self.reader.close()
                    if self._exit is None:  # interrupted: the open cycle re-checked nothing
                        pieces = [p for p in pieces if not isinstance(p, End)]
                    self._handle(pieces)
                    return
                pieces = self.reader.feed(item)
            self._handle(pieces)

    def _handle(self, pieces: list[Piece]) -> None:
        for p in pieces:
            if isinstance(p, Data):
                assert self._classifier is not None
                self._cycle_bytes += len(p.data)
                if self._cycle_bytes <= MAX_CYCLE_BYTES:  # past it: only the tail is kept
                    self._classifier.feed(p.data)
                self._tail += p.data
                del self._tail[:-16000]
            elif isinstance(p, Begin):
                self._cycle_bytes = 0
                self._classifier = self._new()
                self._began = time.monotonic()
                self._tail = bytearray()
            elif isinstance(p, End):
                self._ended(p.cycle)

    def _ended(self, number: int) -> None:
        from faultlens.recipes.observe import RunRecorder

        from .runio import group_summary
        from .runio import say as _say

        assert self._classifier is not None
        self._classifier.options.exit_code = self._exit
        records = self._classifier.close()
        # The cycle is a run like any other (recipes/observe.py): stamped,
        # recorded with its tree state, and it decides the fixes applied earlier.
        recorder = RunRecorder(
            self.ws,
            task=self.task,
            command=self.cmd,
            cwd=self.cwd,
            say=lambda text: _say(self.err, text),
        )
        tail = bytes(self._tail[-8000:]).decode("utf-8", "replace")
        summary = group_summary(records) if records else "no failures"
        _say(self.err, f"cycle {number}: {summary}")
        for r in records:
            where = f"{r.source_file}:{r.source_line}" if r.source_file else "-"
            _say(self.err, f"  {r.failure_type.value}  {where}  {r.signal}")
        recorder.finish(self._exit, records, recover=self.recover, cycle=number)
        self.board.add(WatchCycle(number, self._began, records, tail))  # after its report
        if self.recover and records and recorder.run_id is not None:
            self._recover(records, recorder.run_id, recorder.cwd)

    def _recover(self, records: list[FailureRecord], run_id: int, cwd_rel: str) -> None:
        """The cycle's failures get their one attempt (one batch at a time)."""
        from .runio import say as _say

        if self._recovering is not None and self._recovering.is_alive():
            _say(self.err, "a recovery is still verifying; this cycle's failures wait for it")
            return

        def work() -> None:
            import dataclasses

            from faultlens.recipes import Workspace
            from faultlens.recipes.run_recovery import recover_run
            from faultlens.recipes.watch_board import rerun_by_next_cycle

            hook = rerun_by_next_cycle(self.board, self.verify_timeout)
            ws = Workspace(
                roots=list(self.ws.roots),
                state_dir=self.ws.state_dir,
                settings=dataclasses.replace(self.ws.settings, rerun=hook),
            )
            try:
                rep = recover_run(
                    records,
                    ws,
                    command=self.cmd,
                    cwd=cwd_rel,
                    task=self.task,
                    run_id=run_id,
                    exit_code=None,
                    say=lambda text: _say(self.err, text),
                )
            except Exception as exc:
                _say(self.err, f"recovery failed: {type(exc).__name__}: {exc}")
                return
            for o in [*rep.outcomes, *rep.new]:
                _say(self.err, f"{o.result} {o.record.failure_type.value}: {o.reason}")
            if rep.box:
                self.err.write(rep.box)
                self.err.flush()

        self._recovering = threading.Thread(target=work, name="faultlens-recover", daemon=True)
        self._recovering.start()

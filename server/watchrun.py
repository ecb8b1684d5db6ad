"""Watch mode: a watcher run by the server (`tsc --watch`, `vitest --watch`, ...),
its failures published per cycle.

`faultlens.run` of a watcher answers at once with the task id; the process
keeps running in a background task here.  Its output is split into cycles by
the watcher's own banners (`faultlens.classifier.cycles`); each cycle gets a
classifier of its own, and at the cycle's end its failures replace the task's
(a clean cycle clears them) and `$/progress` reports "cycle N, M failures".
The process runs until `faultlens.stopTask` (or a cancel of the progress, or
the server's shutdown) ends its process tree; then the task's diagnostics are
cleared, unless the `keepDiagnosticsOnStop` setting keeps the last cycle's.
A watcher that exits by itself keeps what its last cycle found.

A recipe applied to a watcher's failure is verified by the watcher's next
cycle (the watch board shared with `faultlens run --watch`:
recipes/watch_board.py), not by running the command again.
"""

from __future__ import annotations

import asyncio
import dataclasses
import time
import uuid
from pathlib import Path
from typing import TYPE_CHECKING, Any

from lsprotocol import types as T

from faultlens.classifier.cycles import AUTO, Begin, CycleReader, Data, End, Watcher, generic
from faultlens.recipes.watch_board import WatchBoard, WatchCycle

from . import runner
from .store import TaskInfo

if TYPE_CHECKING:
    from faultlens.classifier.structured import Recogniser
    from faultlens.recipes.runner_async import Streamed

    from .app import FaultLensServer

UNKNOWN_QUIET = 2.0  # seconds of silence that end a cycle of a watcher with no known banners
TAIL_BYTES = 8000  # of a cycle's output, kept for verification (a test runner's summary)


def project_watcher(cwd: Path) -> Watcher | None:
    """The project's own begin/end patterns: a problem matcher with a
    `background` in the project's faultlens config (as VS Code's tasks have),
    when the config loader offers them."""
    try:
        from faultlens.classifier.config import load_config

        cfg = load_config(cwd)
    except Exception:
        return None
    for rule_id, matcher in (getattr(cfg, "matchers", None) or {}).items():
        bg = getattr(matcher, "background", None)
        begins, ends = getattr(bg, "begins_at", None), getattr(bg, "ends_at", None)
        if callable(begins) and callable(ends):
            return Watcher(f"project:{rule_id}", begins=begins, ends=ends)
    return None


def choose(
    argv: list[str], cwd: Path, *, watch: bool | None, begin: str | None, end: str | None
) -> Watcher | None:
    """The watcher to follow a run with, or None for a run to its end.

    Patterns given with the run win; then the project's background matcher,
    then the watcher the command names; a run said to be a watcher
    (`watch: true`) that is none of these is split by every known banner,
    and by a quiet spell.  Raises re.error for a bad pattern."""
    if watch is False:
        return None
    if begin or end:
        return generic(begin, end, name="run patterns")
    from faultlens.classifier.cycles import watcher_for

    known = watcher_for(argv)
    if known is None and not watch:
        return None
    return project_watcher(cwd) or known or dataclasses.replace(AUTO, quiet=UNKNOWN_QUIET)


def start(
    ls: FaultLensServer, argv: list[str], cwd: Path, task: str | None, key: str, watcher: Watcher
) -> dict[str, Any]:
    """Start following a watcher in the background; the answer to `faultlens.run`."""
    board = WatchBoard(watcher.name)
    stop = asyncio.Event()
    ls.running[key] = stop
    ls.running_task[key] = task
    ls.watches[key] = board
    log_path = ls.run_log(key)
    ls.spawn(follow(ls, argv, cwd, task, (key, watcher, board), stop, log_path), f"watching {key}")
    return {"task": key, "watch": True, "watcher": watcher.name, "log": str(log_path)}


async def follow(
    ls: FaultLensServer,
    argv: list[str],
    cwd: Path,
    task: str | None,
    watching: tuple[str, Watcher, WatchBoard],
    stop: asyncio.Event,
    log_path: Path,
) -> None:
    """Run the watcher until it exits or is stopped, publishing each cycle."""
    from faultlens.classifier.logredact import LogRedactor, scrub_file
    from faultlens.classifier.redact import shown_command

    from .runlog import LOG_HOLD_LINES, open_run_log, run_source

    key, watcher, board = watching
    shown = shown_command(argv)
    source = run_source(argv, ls.rel_cwd(cwd))
    info = TaskInfo(argv=argv, task=task, cwd=cwd, exit_code=None, log_path=log_path)
    token = str(uuid.uuid4())
    progress = ls.supports("window.work_done_progress")
    vault: set[str] = set()  # secrets named by any cycle's scanners (the log masks them)
    scrub = LogRedactor(vault, hold=LOG_HOLD_LINES)
    reader = CycleReader(watcher)
    lock = asyncio.Lock()
    lines = 0  # of the whole output
    last_output = time.monotonic()

    def new_classifier() -> Recogniser:
        from faultlens.classifier.structured import Recogniser

        opts = ls.options(cwd=cwd, task=task, command=argv, exit_code=None, log_file=str(log_path))
        return Recogniser(opts)

    current: dict[str, Any] = {
        "classifier": new_classifier(),
        "began": board.started,
        "offset": 0,  # output lines before the cycle (its records' log lines count from it)
        "tail": bytearray(),
    }

    def report(message: str) -> None:
        if progress:
            ls.work_done_progress.report(token, T.WorkDoneProgressReport(message=message))

    async def end_cycle(piece: End, exit_code: int | None = None) -> None:
        classifier: Recogniser = current["classifier"]
        classifier.options.exit_code = exit_code
        classified = await asyncio.to_thread(ls.finish, classifier)
        vault.update(classified.secrets)
        for r in classified.records:
            if r.log_line:
                r.log_line += current["offset"]
        info.exit_code = exit_code
        entries = await ls.take(key, classified, cwd, info, source=source)
        tail = bytes(current["tail"][-TAIL_BYTES:]).decode("utf-8", "replace")
        board.add(WatchCycle(piece.cycle, current["began"], list(classified.records), tail))
        n = len(entries)
        report(f"cycle {piece.cycle}, {n} failure{'s' if n != 1 else ''}")
        ls.info(f"faultlens: {key}: cycle {piece.cycle} ended, {n} failure(s)")

    async def handle(pieces: list[Any]) -> None:
        nonlocal lines
        for piece in pieces:
            if isinstance(piece, Data):
                await asyncio.to_thread(current["classifier"].feed, piece.data)
                current["tail"] += piece.data
                del current["tail"][: -TAIL_BYTES * 2]
                lines += piece.data.count(b"\n")
            elif isinstance(piece, Begin):
                current.update(
                    classifier=new_classifier(),
                    began=time.monotonic(),
                    offset=lines,
                    tail=bytearray(),
                )
                report(f"cycle {piece.cycle} running")
            elif isinstance(piece, End):
                await end_cycle(piece)

    def cancelled() -> bool:
        fut = ls.work_done_progress.tokens.get(token)
        return stop.is_set() or (fut is not None and fut.cancelled())

    quiet_task: asyncio.Task[None] | None = None
    try:
        if progress:
            await ls.work_done_progress.create_async(token)
            ls.work_done_progress.begin(
                token,
                T.WorkDoneProgressBegin(
                    title=f"faultlens: watching {shown}",
                    message="cycle 1 running",
                    cancellable=True,
                ),
            )
        ls.info(f"faultlens: watching {shown} in {cwd} ({watcher.name} cycles)")
        log_out, logged = open_run_log(ls, log_path)
        with log_out as out:

            async def on_output(chunk: bytes) -> None:
                nonlocal last_output
                last_output = time.monotonic()
                async with lock:
                    await handle(reader.feed(chunk))
                    out.write(scrub.feed(chunk))
                    out.flush()

            async def quiet_spells(seconds: float) -> None:
                while True:
                    await asyncio.sleep(min(seconds, 0.25))
                    if time.monotonic() - last_output >= seconds:
                        async with lock:
                            await handle(reader.quiet())

            if watcher.quiet:
                quiet_task = asyncio.ensure_future(quiet_spells(watcher.quiet))
            result = await runner.run_command(
                argv, cwd, on_output=on_output, cancelled=cancelled, timeout=None
            )
            if quiet_task is not None:
                quiet_task.cancel()
            stopped = result.cancelled or stop.is_set() or killed(result)
            async with lock:
                final = reader.close()
                if stopped:  # the open cycle was cut short: it re-checked nothing
                    final = [p for p in final if not isinstance(p, End)]
                    await handle(final)
                else:
                    for piece in final:
                        if isinstance(piece, End):
                            await end_cycle(piece, result.exit_code)
                        else:
                            await handle([piece])
            out.write(scrub.close())
        if scrub.late and logged:
            await asyncio.to_thread(scrub_file, log_path, scrub.late)
        if result.error:
            ls.warn(f"faultlens: {result.error}", show=True)
        if stopped and not ls.settings.keep_diagnostics_on_stop:
            ls.publish(ls.store.remove_task(key))
        why = result.error or ("stopped" if stopped else f"exit {result.exit_code}")
        summary = f"{why} after {board.count} cycle(s)"
        ls.info(f"faultlens: {key}: {summary}")
        if progress:
            ls.work_done_progress.end(token, T.WorkDoneProgressEnd(message=summary))
    except BaseException:
        if progress:
            ls.work_done_progress.end(token, T.WorkDoneProgressEnd(message="stopped"))
        raise
    finally:
        if quiet_task is not None:
            quiet_task.cancel()
        board.stop(f"the watcher {shown} stopped")
        ls.running.pop(key, None)
        ls.running_task.pop(key, None)
        ls.watches.pop(key, None)
        ls.work_done_progress.tokens.pop(token, None)


def killed(result: Streamed) -> bool:
    """The watcher was killed (by a signal, or a wrapper such as `npx` or `sh`
    reporting its child's signal as 128+N): its open cycle re-checked nothing,
    and its task ends like a stopped one.  A watcher that exits by itself with
    its own status (a crash, `jest --watch` quitting) keeps its last cycle's."""
    code = result.exit_code
    return result.signal is not None or (code is not None and 128 < code <= 128 + 64)

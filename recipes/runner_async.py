"""The process runner's async face (the language server's runs and watchers):
the same start (`runner.spawn`, a process group of its own, stderr merged
into stdout), the same copying loop (`runner.pump`, on a worker thread) and
the same stop (`runner.stop`: SIGTERM to the group and the descendants that
left it, SIGKILL after a grace period), with a cancel flag and a timeout
polled on the event loop.  Every command still running when the process
exits is killed (`stop_all`, at exit): a watcher never outlives the editor
that started it."""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import subprocess
import time
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from .runner import pump, shell_status, spawn, stop

GRACE = 2.0  # seconds between SIGTERM and SIGKILL when a run is stopped
_LIVE: dict[int, subprocess.Popen[bytes]] = {}  # commands still running (stopped at exit)


@dataclass(slots=True)
class Streamed:
    """How a command run by `run_streaming` ended."""

    exit_code: int | None  # as a shell says it (128+N after signal N); None: never started
    lines: int
    bytes: int
    seconds: float
    cancelled: bool = False
    timed_out: bool = False
    error: str | None = None  # why it could not start
    signal: int | None = None  # the signal that killed it


async def run_streaming(
    argv: Sequence[str],
    cwd: Path,
    *,
    env: Mapping[str, str],
    on_output: Callable[[bytes], Awaitable[None]],
    on_lines: Callable[[int], None] | None = None,
    cancelled: Callable[[], bool] = lambda: False,
    timeout: float | None = None,
) -> Streamed:
    """Run `argv` in `cwd`, handing every chunk of output to `on_output` on the
    event loop (the copying waits for it: a slow consumer slows the command,
    nothing is dropped).  When `cancelled()` turns true, the timeout passes or
    the calling task is cancelled, the command is stopped with its tree."""
    start = time.monotonic()
    proc = await asyncio.to_thread(
        spawn, argv, cwd=cwd, env=env, new_session=True, merge_stderr=True
    )
    if isinstance(proc, str):
        return Streamed(None, 0, 0, time.monotonic() - start, error=proc)
    loop = asyncio.get_running_loop()
    _LIVE[proc.pid] = proc
    counts = {"lines": 0, "bytes": 0}

    def deliver(chunk: bytes) -> None:  # on the copying thread
        counts["bytes"] += len(chunk)
        counts["lines"] += chunk.count(b"\n")
        asyncio.run_coroutine_threadsafe(_handed(chunk), loop).result()

    async def _handed(chunk: bytes) -> None:
        await on_output(chunk)
        if on_lines is not None:
            on_lines(counts["lines"])

    why: str | None = None
    copying = asyncio.ensure_future(asyncio.to_thread(pump, proc, on_stdout=deliver))
    try:
        while not copying.done():
            if cancelled():
                why = "cancelled"
            elif timeout is not None and time.monotonic() - start > timeout:
                why = "timeout"
            if why:
                await asyncio.to_thread(stop, proc, own_group=True, grace=GRACE)
                break
            await asyncio.wait({copying}, timeout=0.1)
        await copying
        code = await asyncio.to_thread(proc.wait)
    except asyncio.CancelledError:
        why = "cancelled"
        await asyncio.shield(asyncio.to_thread(stop, proc, own_group=True, grace=GRACE))
        raise
    finally:
        _LIVE.pop(proc.pid, None)
        if proc.stdout is not None:
            with contextlib.suppress(OSError):
                proc.stdout.close()
    return Streamed(
        exit_code=shell_status(code),
        lines=counts["lines"],
        bytes=counts["bytes"],
        seconds=time.monotonic() - start,
        cancelled=why == "cancelled",
        timed_out=why == "timeout",
        signal=-code if code < 0 else None,
    )


def stop_all() -> None:
    """Kill every command still running (the process is exiting)."""
    for proc in list(_LIVE.values()):
        stop(proc, own_group=True)
    _LIVE.clear()


atexit.register(stop_all)

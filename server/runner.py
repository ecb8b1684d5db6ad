"""Running a command for `faultlens.run`: asynchronously, streaming, cancellable.

The child never touches the server's stdin or stdout (on stdio they are the
protocol): stdin is /dev/null, stdout and stderr are pipes (stderr merged into
stdout, like `2>&1`, so a traceback stays next to the output that led to it).
The argv is a list of validated strings and is executed directly, never through
a shell.  The child runs in its own process group, so a cancel stops its
children too; a stop also ends the descendants that left the group (a watcher's
workers started in sessions of their own), and every command still running
when the server exits is stopped the same way.
"""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import os
import shlex
import signal
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from faultlens.recipes.proctree import alive, descendants, exists, signal_tree

READ_SIZE = 64 * 1024
_LIVE: set[int] = set()  # process groups of commands still running (stopped at exit)


class BadCommand(ValueError):
    """The command cannot be run (empty, not a list of strings, bad cwd)."""


@dataclass(slots=True)
class RunResult:
    """How a command ended."""

    exit_code: int | None
    lines: int
    bytes: int
    seconds: float
    cancelled: bool = False
    timed_out: bool = False
    error: str | None = None
    signal: int | None = None  # the signal that killed it (exit_code is then 128+N)


def to_argv(command: str | Sequence[str]) -> list[str]:
    """A validated argv: a list of strings as given, or a string split like a shell would."""
    if isinstance(command, str):
        try:
            argv = shlex.split(command)
        except ValueError as exc:
            raise BadCommand(f"cannot split the command: {exc}") from None
    elif isinstance(command, Sequence) and all(isinstance(a, str) for a in command):
        argv = list(command)
    else:
        raise BadCommand("command must be a string or a list of strings")
    if not argv or not argv[0]:
        raise BadCommand("command is empty")
    if any("\x00" in a for a in argv):
        raise BadCommand("command contains a NUL byte")
    return argv


def working_dir(root: Path, cwd: str | None) -> Path:
    """The run's cwd: `cwd` relative to the root (or absolute), which must stay inside it."""
    target = (root / cwd).resolve() if cwd else root.resolve()
    real_root = root.resolve()
    if target != real_root and real_root not in target.parents:
        raise BadCommand(f"cwd {cwd!r} is outside the workspace")
    if not target.is_dir():
        raise BadCommand(f"cwd {cwd!r} is not a directory")
    return target


async def run_command(
    argv: list[str],
    cwd: Path,
    *,
    on_output: Callable[[bytes], Awaitable[None]],
    on_lines: Callable[[int], None] | None = None,
    cancelled: Callable[[], bool] = lambda: False,
    timeout: float | None = None,
    env: dict[str, str] | None = None,
) -> RunResult:
    """Run `argv` in `cwd`, handing every chunk of output to `on_output`.

    `cancelled` is polled; when it turns true (or the timeout passes, or the
    calling task is cancelled) the process group is terminated.
    """
    start = time.monotonic()
    try:
        proc = await asyncio.create_subprocess_exec(
            *argv,
            cwd=str(cwd),
            stdin=asyncio.subprocess.DEVNULL,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.STDOUT,
            env={**os.environ, **(env or {})},
            start_new_session=True,
        )
    except OSError as exc:
        return RunResult(
            None,
            0,
            0,
            time.monotonic() - start,
            error=f"{_shown_program(argv)}: {exc.strerror or exc}",
        )
    assert proc.stdout is not None
    _LIVE.add(proc.pid)
    lines = 0
    size = 0
    stop: str | None = None

    async def watchdog() -> None:
        nonlocal stop
        while proc.returncode is None:
            if cancelled():
                stop = "cancelled"
            elif timeout is not None and time.monotonic() - start > timeout:
                stop = "timeout"
            if stop:
                await _terminate(proc)
                return
            await asyncio.sleep(0.1)

    dog = asyncio.create_task(watchdog())
    try:
        while chunk := await proc.stdout.read(READ_SIZE):
            size += len(chunk)
            lines += chunk.count(b"\n")
            await on_output(chunk)
            if on_lines is not None:
                on_lines(lines)
        code = await proc.wait()
    except asyncio.CancelledError:
        stop = "cancelled"
        await _terminate(proc)
        raise
    finally:
        dog.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await dog
        _LIVE.discard(proc.pid)
    from faultlens.recipes.runner import shell_status  # 128+N for a command killed by signal N

    return RunResult(
        exit_code=shell_status(code),
        lines=lines,
        bytes=size,
        seconds=time.monotonic() - start,
        cancelled=stop == "cancelled",
        timed_out=stop == "timeout",
        signal=-code if code < 0 else None,
    )


def _shown_program(argv: list[str]) -> str:
    """argv[0] as shown in a message (`API_TOKEN=x make` split wrongly names a secret)."""
    from faultlens.classifier.redact import redact_argv

    return redact_argv(argv[:1])[0]


async def _terminate(proc: asyncio.subprocess.Process, grace: float = 2.0) -> None:
    """SIGTERM the process tree (its group, and descendants that left it), then
    SIGKILL what is left after `grace` seconds."""
    if proc.returncode is not None:
        return
    tree = descendants(proc.pid)
    signal_tree(proc.pid, tree, signal.SIGTERM)
    deadline = time.monotonic() + grace
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(proc.wait(), grace)
    while alive(tree) and time.monotonic() < deadline:
        await asyncio.sleep(0.05)
    left = {p for p in tree | descendants(proc.pid) if exists(p)}
    if proc.returncode is None or left:
        signal_tree(proc.pid, left, signal.SIGKILL)
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(proc.wait(), grace)


def stop_all() -> None:
    """Kill every command still running (the server is exiting): a watcher
    must not outlive the editor that started it."""
    for group in list(_LIVE):
        signal_tree(group, descendants(group), signal.SIGKILL)
    _LIVE.clear()


atexit.register(stop_all)

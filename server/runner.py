"""Running a command for `faultlens.run`: asynchronously, streaming, cancellable
(the one process runner's async face, recipes/runner_async.py, with the
server's validation of a command and its folder).

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

import shlex
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from faultlens.recipes.proctree import descendants as descendants  # the tests' view of a tree

if TYPE_CHECKING:
    from faultlens.recipes.runner_async import Streamed


class BadCommand(ValueError):
    """The command cannot be run (empty, not a list of strings, bad cwd)."""


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
) -> Streamed:
    """Run `argv` in `cwd`, handing every chunk of output to `on_output`.

    `cancelled` is polled; when it turns true (or the timeout passes, or the
    calling task is cancelled) the process tree is stopped.  The process runner
    itself (start, copy, stop) is recipes/runner_async.py.
    """
    from faultlens.recipes.runner import build_env
    from faultlens.recipes.runner_async import run_streaming

    return await run_streaming(
        argv,
        cwd,
        env=build_env(None, env or {}),
        on_output=on_output,
        on_lines=on_lines,
        cancelled=cancelled,
        timeout=timeout,
    )

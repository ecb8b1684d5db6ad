"""The command of `faultlens run`: started first, its output copied through.

`recipes.runner.stream_process` runs a recipe's steps (timeouts, a tail of
the output, their own session); `faultlens run` needs none of that, and
splits starting the command (`recipes.runner.spawn`) from copying its output
so that everything else (the classifier's imports and rules) can start after
the command.

The output is copied as it comes, byte for byte, to the sinks of its own
stream, and handed to `on_data` split at line ends: a line of one stream is
never cut by the other's (a line longer than 1 MiB is handed over in pieces).
"""

from __future__ import annotations

import contextlib
import os
import selectors
import subprocess
from collections.abc import Callable

from faultlens.recipes.runner import shell_status

Sink = Callable[[bytes], None]

READ = 1 << 16  # at most this much per read (what a pipe holds by default)
LONG_LINE = 1 << 20  # a line longer than this is handed to on_data in pieces


def copy_through(
    proc: subprocess.Popen[bytes],
    *,
    on_stdout: Sink,
    on_stderr: Sink,
    on_data: Sink,
) -> int:
    """Copy the output until both streams close; the command's exit status
    (as a shell gives it, `shell_status`).
    If we are interrupted, the command is killed before re-raising."""
    assert proc.stdout is not None and proc.stderr is not None
    sel = selectors.DefaultSelector()
    try:
        sel.register(proc.stdout, selectors.EVENT_READ, (on_stdout, [b""]))
        sel.register(proc.stderr, selectors.EVENT_READ, (on_stderr, [b""]))
        _pump(sel, on_data)
    except BaseException:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            proc.kill()
        proc.wait()
        raise
    finally:
        sel.close()
    code = proc.wait()
    proc.stdout.close()
    proc.stderr.close()
    return shell_status(code)


def _pump(sel: selectors.BaseSelector, on_data: Sink) -> None:
    read = os.read
    open_streams = 2
    while open_streams:
        for key, _ in sel.select():
            sink, pending = key.data
            chunk = read(key.fd, READ)
            if not chunk:
                sel.unregister(key.fileobj)
                open_streams -= 1
                if pending[0]:
                    on_data(pending[0])
                    pending[0] = b""
                continue
            sink(chunk)
            buf = pending[0] + chunk if pending[0] else chunk
            cut = buf.rfind(b"\n")
            if cut < 0:
                if len(buf) > LONG_LINE:
                    on_data(buf)
                    buf = b""
                pending[0] = buf
            elif cut == len(buf) - 1:
                on_data(buf)
                pending[0] = b""
            else:
                on_data(buf[: cut + 1])
                pending[0] = buf[cut + 1 :]

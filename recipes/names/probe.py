"""Running a toolchain to ask it what it provides (`python -c <probe>`,
`go list std`, `node -` reading a probe): argv only, never a shell, a fresh process
group killed whole on a timeout, output capped.  Any failure is None: an
index that cannot be built is an empty index, never an error."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import tempfile

MAX_OUTPUT = 32 << 20


def run(
    argv: list[str],
    timeout: float,
    env: dict[str, str] | None = None,
    merge_stderr: bool = False,
    script: str | None = None,
) -> str | None:
    """The stdout of `argv` (with its stderr when `merge_stderr`: where gcc
    prints its search folders) run in an empty temporary directory (so no
    workspace file is on its path), `script` given on its stdin, or None when
    it fails, times out or prints too much."""
    with tempfile.TemporaryDirectory(prefix="faultlens-probe-") as empty:
        try:
            proc = subprocess.Popen(
                argv,
                cwd=empty,
                env=env,
                stdin=subprocess.DEVNULL if script is None else subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT if merge_stderr else subprocess.DEVNULL,
                start_new_session=True,
            )
        except OSError:
            return None
        try:
            data = None if script is None else script.encode("utf-8")
            out, _ = proc.communicate(data, timeout=timeout)
        except subprocess.TimeoutExpired:
            _kill(proc)
            return None
    if proc.returncode != 0 or len(out) > MAX_OUTPUT:
        return None
    try:
        return out.decode("utf-8")
    except UnicodeDecodeError:
        return None


def _kill(proc: subprocess.Popen[bytes]) -> None:
    """End the probe's whole process group (it may have started children)."""
    with contextlib.suppress(OSError):
        os.killpg(proc.pid, signal.SIGKILL)
    with contextlib.suppress(OSError, subprocess.SubprocessError):
        proc.communicate(timeout=5)

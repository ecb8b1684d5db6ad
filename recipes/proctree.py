"""A command's process tree (Linux /proc), for stopping a watcher with
everything it started: `npx tsc --watch` is npm, a shell and tsc, and tsc
outlives npm when only npm is killed.  Standard library only: the server's
runner and `faultlens run --watch` both use it."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import time
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path


def descendants(pid: int) -> set[int]:
    """Every process below `pid` (empty where there is none, or no /proc)."""
    children: dict[int, list[int]] = {}
    try:
        entries = os.listdir("/proc")
    except OSError:
        return set()
    for name in entries:
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat", "rb") as fh:
                stat = fh.read()
        except OSError:
            continue
        fields = stat[stat.rfind(b")") + 2 :].split()
        if len(fields) > 1:
            children.setdefault(int(fields[1]), []).append(int(name))
    out: set[int] = set()
    todo = [pid]
    while todo:
        for child in children.get(todo.pop(), ()):
            if child not in out:
                out.add(child)
                todo.append(child)
    return out


def signal_tree(group: int | None, pids: Iterable[int], sig: signal.Signals) -> None:
    """`sig` to the process group `group` (when given) and to each of `pids`."""
    if group is not None:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(group, sig)
    for pid in pids:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.kill(pid, sig)


def exists(pid: int) -> bool:
    """The process is alive (a zombie is not)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return not _zombie(pid)


def _zombie(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat", "rb") as fh:
            stat = fh.read()
    except OSError:
        return False
    return stat[stat.rfind(b")") + 2 :][:1] == b"Z"


def alive(pids: Iterable[int]) -> bool:
    return any(exists(p) for p in pids)


def reap(pids: set[int], grace: float = 2.0) -> None:
    """Wait up to `grace` seconds for `pids` (already signalled) to end, then
    SIGKILL what is left."""
    deadline = time.monotonic() + grace
    while alive(pids) and time.monotonic() < deadline:
        time.sleep(0.05)
    signal_tree(None, {p for p in pids if exists(p)}, signal.SIGKILL)


def run_group(
    argv: Sequence[str],
    *,
    cwd: Path,
    env: Mapping[str, str],
    timeout: float,
    stdin: bytes | None = None,
) -> subprocess.CompletedProcess[bytes]:
    """`subprocess.run` for a helper command (git), in its own process group:
    on timeout the whole group is killed, not the leader alone (`git fetch`'s
    ssh and upload-pack outlive a killed git), and what the group left running
    after the leader exited is killed too.  Raises what `subprocess.run` raises
    (OSError, TimeoutExpired after the group is gone)."""
    proc = subprocess.Popen(
        list(argv),
        cwd=cwd,
        env=dict(env),
        stdin=subprocess.PIPE if stdin is not None else subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
        shell=False,
    )
    try:
        out, err = proc.communicate(stdin, timeout=timeout)
    except BaseException:
        kill_group(proc.pid)
        proc.communicate()
        raise
    kill_group(proc.pid)  # the leader is gone: nothing of its group may stay
    return subprocess.CompletedProcess(proc.args, proc.returncode, out, err)


def kill_group(group: int) -> None:
    """SIGKILL to every process of the group (none left is fine)."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(group, signal.SIGKILL)


def processes_with(var: str, token: str) -> list[int]:
    """Our processes (this user's, not this one) whose environment holds
    `var=token`."""
    needle = f"{var}={token}".encode()
    uid = os.getuid()
    found = []
    with contextlib.suppress(OSError):
        for name in os.listdir("/proc"):
            if not name.isdigit() or int(name) == os.getpid():
                continue
            try:
                if os.stat(f"/proc/{name}").st_uid != uid:
                    continue
                with open(f"/proc/{name}/environ", "rb") as f:
                    env = f.read(1 << 20)
            except OSError:
                continue
            if needle in env.split(b"\0"):
                found.append(int(name))
    return found


def stop_tagged(var: str, token: str) -> int:
    """SIGKILL every process of ours carrying `var=token` (a 32-hex token);
    how many there were."""
    if len(token) != 32 or not all(c in "0123456789abcdef" for c in token):
        return 0
    pids = processes_with(var, token)
    for pid in pids:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.kill(pid, signal.SIGKILL)
    return len(pids)

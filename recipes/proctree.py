"""A command's process tree (Linux /proc), for stopping a watcher with
everything it started: `npx tsc --watch` is npm, a shell and tsc, and tsc
outlives npm when only npm is killed.  Standard library only: the server's
runner and `faultlens run --watch` both use it."""

from __future__ import annotations

import contextlib
import os
import signal
import time
from collections.abc import Iterable


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

"""A command's process tree (Linux /proc), for stopping a watcher with
everything it started: `npx tsc --watch` is npm, a shell and tsc, and tsc
outlives npm when only npm is killed.  Standard library only: the server's
runner and `faultlens run --watch` both use it."""

from __future__ import annotations

import contextlib
import os
import signal
import time
from collections.abc import Callable, Iterable


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


def stop_tree_on_signals(pid: int, tree: set[int]) -> Callable[[], None]:
    """While the command runs, Ctrl-C (SIGINT) and SIGTERM first signal its
    whole tree (`npx tsc --watch`, `npx jest`: the tool outlives npm killed
    alone; `kill` reaches faultlens, not its children), adding it to `tree`
    for the caller's final `proctree.reap`, then end `faultlens run` as usual
    (KeyboardInterrupt, SystemExit(128+N)).  A function restoring the previous
    handlers (none are set outside the main thread)."""
    import threading

    if threading.current_thread() is not threading.main_thread():
        return lambda: None

    def handler(signum: int, _frame: object) -> None:
        tree.update(descendants(pid))
        signal_tree(None, tree, signal.SIGTERM)
        if signum == signal.SIGINT:
            raise KeyboardInterrupt
        raise SystemExit(128 + signum)

    before = {sig: signal.signal(sig, handler) for sig in (signal.SIGINT, signal.SIGTERM)}

    def restore() -> None:
        for sig, old in before.items():
            signal.signal(sig, old)

    return restore

"""What `faultlens run` and `faultlens run --watch` both print and guard:
the one-line messages, the copied output, the state calls that must never
stop the command, the command's process tree on a signal, and a group's
one-line summary."""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from typing import IO, TYPE_CHECKING, Any

if TYPE_CHECKING:
    from faultlens.classifier.record import FailureRecord
    from faultlens.recipes import Workspace


def guarded(ws: Workspace, fn: Any, *args: Any) -> Any:
    """`fn(*args)`, or None when the state cannot be written (said once): a
    read-only or full state dir never stops the command."""
    from faultlens.recipes import StateUnavailable

    try:
        return fn(*args)
    except StateUnavailable as exc:
        from faultlens.recipes.events import unwritable

        unwritable(ws, exc)
        return None


def writer(stream: IO[bytes]) -> Any:
    def write(chunk: bytes) -> None:
        try:
            stream.write(chunk)
            stream.flush()
        except (BrokenPipeError, ValueError):
            pass

    return write


def say(err: IO[str], text: str) -> None:
    err.write(f"faultlens: {text}\n")
    err.flush()


def tests_affected(n: int) -> str:
    """`3 tests affected`"""
    return f"{n} test{'s' if n != 1 else ''} affected"


def group_summary(records: Sequence[FailureRecord]) -> str:
    """`1 compile failure, 60 tests affected; 2 test failures`"""
    by_type: dict[str, list[FailureRecord]] = {}
    for r in records:
        by_type.setdefault(r.failure_type.value, []).append(r)
    parts = []
    for ft, recs in by_type.items():
        n = len(recs)
        part = f"{n} {ft} failure{'s' if n != 1 else ''}"
        affected = sum(r.affected for r in recs)
        if affected > n:
            part += f", {tests_affected(affected)}"
        parts.append(part)
    return "; ".join(parts)


def stop_tree_on_signals(pid: int, tree: set[int]) -> Callable[[], None]:
    """While the command runs, Ctrl-C (SIGINT) and SIGTERM first signal its
    whole tree (`npx tsc --watch`, `npx jest`: the tool outlives npm killed
    alone; `kill` reaches faultlens, not its children), adding it to `tree`
    for the caller's final `proctree.reap`, then end `faultlens run` as usual
    (KeyboardInterrupt, SystemExit(128+N)).  A function restoring the previous
    handlers (none are set outside the main thread)."""
    import signal

    from faultlens.recipes.proctree import descendants, signal_tree

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

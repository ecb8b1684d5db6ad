"""Processes started for one caller, stopped with it (issue 27, items 2 and 8).

An MCP `run` call, like a triage check, starts a command that must not
outlive what started it: not a cancelled call (`notifications/cancelled`),
not a client that closed the stream, not a server stopped by SIGTERM, and
not, after the next start, a server killed with kill -9.  A `ProcessScope`
is that caller's: while it is entered (on the calling thread),
recipes/runner.py `spawn` starts each command in its own process group
carrying the scope's random token in its environment (RUN_TOKEN_VAR), and
records the group.  `stop()` kills every group and every process of ours
that still carries the token (a daemon that left its group keeps its
environment).  The token is journalled (kind "run.procs") just before the
first process starts (a call that starts none writes nothing), so a start after a kill -9 stops what still carries it
(`recover_processes`, registered in recipes/crash_restore.py); `stop_all()` is
for a server's exit.
"""

from __future__ import annotations

import contextlib
import secrets
import threading
from typing import TYPE_CHECKING, Any

from . import proctree

if TYPE_CHECKING:
    from . import journal
    from .model import Workspace

RUN_TOKEN_VAR = "FAULTLENS_RUN_TOKEN"  # noqa: S105 (a variable name, not a password)
KIND = "run.procs"

_current = threading.local()
_active: set[ProcessScope] = set()
_lock = threading.Lock()


class ProcessScope:
    """The processes of one caller (see the module doc)."""

    def __init__(
        self, ws: Workspace | None = None, *, own_group: bool = True, stop_at_exit: bool = True
    ) -> None:
        """`own_group=False` leaves each command in our process group (a
        terminal's Ctrl-C reaches it, as from a shell: `faultlens run`);
        `stop_at_exit=False` leaves what a command started on purpose running
        when the scope ends normally (only a killed scope's are stopped, at
        the next start)."""
        self.ws = ws
        self.own_group = own_group
        self.stop_at_exit = stop_at_exit
        self.token = secrets.token_hex(16)
        self.groups: set[int] = set()
        self.stopped = False
        self._entry: journal.JournalEntry | None = None

    def env(self) -> dict[str, str]:
        return {RUN_TOKEN_VAR: self.token}

    def started(self, pid: int) -> None:
        """A process group this scope started (its leader's pid)."""
        with _lock:
            self.groups.add(pid)
        if self.stopped:  # started while the scope was being stopped
            proctree.kill_group(pid)

    def stop(self) -> int:
        """Kill every process of the scope; how many processes carried its token."""
        self.stopped = True
        with _lock:
            groups = set(self.groups)
        for group in groups:
            proctree.kill_group(group)
        return proctree.stop_tagged(RUN_TOKEN_VAR, self.token)

    def before_start(self) -> None:
        """Journal the token, once, before the scope's first process starts (a
        call that starts none writes no state)."""
        if self.ws is None or self._entry is not None:
            return
        from . import journal
        from .model import StateUnavailable

        with contextlib.suppress(OSError, StateUnavailable):
            self._entry = journal.begin(self.ws, KIND, {"token": self.token})

    def __enter__(self) -> ProcessScope:
        _current.scope = self
        with _lock:
            _active.add(self)
        return self

    def __exit__(self, *exc: Any) -> None:
        _current.scope = None
        try:
            if self.stop_at_exit or exc[0] is not None:
                self.stop()
        finally:
            with _lock:
                _active.discard(self)
            if self.ws is not None and self._entry is not None:
                from . import journal
                from .model import StateUnavailable

                with contextlib.suppress(OSError, StateUnavailable):
                    journal.end(self.ws, self._entry)


def current() -> ProcessScope | None:
    """The scope entered on this thread, if any."""
    scope: ProcessScope | None = getattr(_current, "scope", None)
    return scope


def stop_all() -> None:
    """Stop every active scope (a server's exit: SIGTERM, the client gone)."""
    with _lock:
        scopes = list(_active)
    for scope in scopes:
        scope.stop()


def recover_processes(
    ws: Workspace, entry: journal.JournalEntry, *, stale: bool
) -> journal.Recovered:
    """The start-up handler of kind "run.procs": stop what a killed caller's
    commands left running (whatever its age: a process is never kept)."""
    from . import journal

    token = entry.data.get("token")
    stopped = proctree.stop_tagged(RUN_TOKEN_VAR, token) if isinstance(token, str) else 0
    what = f"stopped {stopped} process(es) a killed faultlens left running" if stopped else ""
    return journal.Recovered(what, fields={"stopped": stopped})

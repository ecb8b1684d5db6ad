"""Putting things back after faultlens was killed: run at every start.

`recover_state(ws)` is what the CLI and the server call when they start (and
`apply_edits` calls `recover(ws, kinds=("edits",))` before every apply):

1. every journal entry (recipes/journal.py) whose owner is dead goes to the
   handler of its kind: an interrupted apply is rolled back, an interrupted
   `git rebase`/`merge` is aborted, a temporary worktree is removed;
2. a journal this machine did not write (no valid HMAC, another state dir)
   is reported and never acted on;
3. an attempt left `pending` in the ledger by a dead process is closed as
   escalated, saying what was interrupted and what was put back.

Every action is reported: an event in events.jsonl (`state.recovered`,
`state.kept`, `state.refused`) and one line through `statefs.report`.  An
entry older than MAX_AGE_S is not undone (a roll back days later, on an
unrelated recipe, would surprise more than help): it is reported and set
aside for a human.

Handlers: a kind maps to `"module:function"` (imported when needed, so the
next start finds it without the code that wrote the entry being loaded).
A feature adds its own with `register(kind, "pkg.module:function")`; the
function is `(ws, entry, *, stale: bool) -> journal.Recovered`.
"""

from __future__ import annotations

import importlib
import logging
import os
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, Protocol

from . import journal, statefs
from .model import StateUnavailable, Workspace

log = logging.getLogger(__name__)

MAX_AGE_S = 24 * 3600.0  # older interrupted operations are reported, not undone
FUTURE_SLACK_S = 600.0  # an entry from further in the future is treated as stale


class Handler(Protocol):
    def __call__(
        self, ws: Workspace, entry: journal.JournalEntry, *, stale: bool
    ) -> journal.Recovered: ...


HANDLERS: dict[str, str | Handler] = {
    "edits": "faultlens.recipes.edits:recover_entry",
    "git.sync": "faultlens.recipes.fixes.gitjournal:recover_entry",
    "git.worktree": "faultlens.recipes.scratch:recover_worktree",
    "paths": "faultlens.recipes.scratch:recover_paths",
    "triage.procs": "faultlens.recipes.triage_run:recover_processes",
    "run.procs": "faultlens.recipes.procscope:recover_processes",
}


def register(kind: str, handler: str | Handler) -> None:
    """Name the handler of a journal kind (`"module:function"` or a callable)."""
    if not journal.KIND.fullmatch(kind):
        raise ValueError(f"bad journal kind {kind!r}")
    HANDLERS[kind] = handler


def _handler(kind: str) -> Handler | None:
    target = HANDLERS.get(kind)
    if target is None or not isinstance(target, str):
        return target
    module, _, name = target.partition(":")
    try:
        fn: Handler = getattr(importlib.import_module(module), name)
    except (ImportError, AttributeError) as exc:
        log.warning("the handler of %s journals (%s) cannot be loaded: %s", kind, target, exc)
        return None
    return fn


@dataclass(slots=True)
class Notice:
    """One thing recovery did or refused, for the user and the event log."""

    event: str  # one of events.STATE_EVENTS
    message: str
    kind: str = ""
    done: bool = False
    owner_pid: int | None = None
    fields: dict[str, Any] = field(default_factory=dict)


_told: set[str] = set()
_told_lock = threading.Lock()


def _first_time(key: str) -> bool:
    with _told_lock:
        if key in _told:
            return False
        _told.add(key)
        return True


def _publish(ws: Workspace, notices: Iterable[Notice]) -> None:
    from .events import EventLog

    events = EventLog(ws)
    for n in notices:
        statefs.report(n.message)
        try:
            events.notice(n.event, n.message, kind=n.kind, **n.fields)
        except Exception as exc:  # the log must never stop recovery
            log.warning("could not log %s: %s", n.event, exc)


def _run_handler(ws: Workspace, entry: journal.JournalEntry, handler: Handler) -> list[Notice]:
    age = entry.age_s
    stale = age > MAX_AGE_S or age < -FUTURE_SLACK_S
    try:
        result = handler(ws, entry, stale=stale)
    except Exception as exc:
        log.warning("recovering %s failed", entry.name, exc_info=exc)
        message = f"could not put back an interrupted {entry.kind} ({entry.name}): {exc}"
        if not _first_time(f"failed:{ws.state_dir}:{entry.name}"):
            return []
        return [Notice("state.refused", message, entry.kind, owner_pid=entry.owner.pid)]
    fields = {"journal": entry.name, "age_s": round(age, 1), **result.fields}
    if result.done:
        if stale:
            fields["kept_as"] = journal.set_aside(ws, entry.name, "stale")
        else:
            journal.end(ws, entry)
    notices = [
        Notice(
            "state.recovered",
            result.summary,
            entry.kind,
            result.done,
            result.on_behalf_of or entry.owner.pid,
            fields,
        )
    ]
    if result.kept:
        notices.append(
            Notice(
                "state.kept",
                f"kept your later changes to {', '.join(result.kept[:8])}: they no longer hold"
                f" what the interrupted {entry.kind} wrote, so they were not rolled back",
                entry.kind,
                owner_pid=entry.owner.pid,
                fields={"journal": entry.name, "files": result.kept},
            )
        )
    return notices


def recover(ws: Workspace, *, kinds: Iterable[str] | None = None) -> list[Notice]:
    """Hand every interrupted journal entry (of `kinds`, default all) to its
    handler; report refused ones.  Never raises for a state problem."""
    wanted = None if kinds is None else set(kinds)
    try:
        found = journal.scan(ws)
    except (OSError, StateUnavailable):
        return []
    notices: list[Notice] = []
    # What a killed faultlens left running is stopped before anything is
    # removed or undone (a triage check's processes before its worktree).
    found.sort(key=lambda f: 0 if f.entry is not None and f.entry.kind.endswith(".procs") else 1)
    for f in found:
        entry = f.entry
        if entry is None:
            if _first_time(f"refused:{ws.state_dir}:{f.name}"):
                notices.append(
                    Notice(
                        "state.refused",
                        f"ignoring {journal.DIR}/{f.name} in the state dir ({f.problem}):"
                        " nothing in it is acted on (delete it to silence this)",
                        fields={"journal": f.name, "problem": f.problem},
                    )
                )
            continue
        if wanted is not None and entry.kind not in wanted:
            continue
        if entry.owner.alive():
            continue
        handler = _handler(entry.kind)
        if handler is None:
            if _first_time(f"unknown:{ws.state_dir}:{f.name}"):
                notices.append(
                    Notice(
                        "state.refused",
                        f"an interrupted {entry.kind} ({f.name}) has no handler here: left as is",
                        entry.kind,
                        fields={"journal": f.name},
                    )
                )
            continue
        try:
            notices.extend(_run_handler(ws, entry, handler))
        except (OSError, StateUnavailable) as exc:
            log.warning("recovery of %s stopped: %s", f.name, exc)
    if notices:
        _publish(ws, notices)
    return notices


# -- attempts a dead process left pending ---------------------------------------------------
def _boot_time() -> float | None:
    try:
        with open("/proc/stat", encoding="ascii") as f:
            for ln in f:
                if ln.startswith("btime "):
                    return float(ln.split()[1])
    except (OSError, ValueError):
        return None
    return None


def claimer_gone(pid: int, claimed_at: float) -> bool:
    """Whether the process that claimed an attempt at `claimed_at` is gone
    (not running, or its pid now belongs to a process started later)."""
    boot = _boot_time()
    if boot is not None and claimed_at < boot:
        return True
    if pid == os.getpid():
        return False
    if not journal.pid_exists(pid):
        return True
    start = journal.process_start(pid)
    if boot is not None and start is not None:
        started = boot + start / os.sysconf("SC_CLK_TCK")
        return started > claimed_at + 1.0
    return False


def close_interrupted_attempts(
    ws: Workspace, notices: Iterable[Notice] = (), gone: Callable[[int, float], bool] = claimer_gone
) -> list[Notice]:
    """Close every pending attempt whose claimer is gone: escalated, saying it
    was interrupted (and what recovery put back for that process)."""
    from .ledger import Ledger

    if not (ws.state / "ledger.sqlite3").exists():
        return []
    ledger = Ledger.open(ws)
    rows = [r for r in ledger.pending_attempts() if r.record is not None and gone(r.pid, r.created)]
    if not rows:
        return []  # the usual start: no import of the record model needed
    from faultlens.classifier.record import FailureRecord

    from .events import EventLog
    from .model import Outcome

    by_pid: dict[int | None, list[str]] = {}
    for n in notices:
        if n.event == "state.recovered":
            by_pid.setdefault(n.owner_pid, []).append(n.message)
    closed: list[Notice] = []
    for row in rows:
        try:
            record = FailureRecord.from_json(row.record)
        except ValueError:
            continue
        put_back = by_pid.get(row.pid) or [
            m for pid, ms in by_pid.items() if pid != row.pid for m in ms
        ]
        when = time.strftime("%Y-%m-%d %H:%M", time.localtime(row.created))
        reason = f"interrupted: faultlens stopped during this attempt (started {when})"
        if put_back:
            reason += "; " + "; ".join(put_back)
        record.recovery_attempted = True
        record.recovery_result = "escalated"
        outcome = Outcome(record=record, result="escalated", tried="the recipe", reason=reason)
        # Not through lifecycle/settle.py: the crash restore runs below the
        # recipes (recipes/edits.py imports it), so it writes its row and event itself.
        ledger.finish(row.id, outcome)
        EventLog(ws).emit("recovery.escalated", record, tried=outcome.tried, reason=reason)
        closed.append(
            Notice(
                "state.recovered",
                f"closed the interrupted attempt at {record.failure_type.value}"
                f" {record.source_file or record.id}: escalated",
                "attempt",
                True,
                row.pid,
                {"attempt": row.id, "failure_id": row.failure_id},
            )
        )
    if closed:
        _publish(ws, closed)
    return closed


def recover_state(ws: Workspace) -> list[Notice]:
    """Everything a start does to put back what a killed faultlens left:
    interrupted journal entries, then pending attempts.  Never raises for a
    state problem (the state may be read-only: nothing is put back then)."""
    try:
        notices = recover(ws)
        return notices + close_interrupted_attempts(ws, notices)
    except (OSError, StateUnavailable) as exc:
        log.warning("recovery skipped: %s", exc)
        return []

"""The lifecycle log: machine-readable events and the second seed's text logs.

* `state_dir/events.jsonl`: one JSON object per line, events
  failure.classified, recovery.attempted, recovery.succeeded,
  recovery.escalated, recovery.skipped, recovery.applied (a fix nothing
  verified yet), recovery.reverted, failure.triaged, each carrying the record.
* `state_dir/logs/session-YYYY-MM-DD.log`: every event in the seed's format.
* `state_dir/logs/errors/<TASK>-failure.log`: the ERROR blocks of one task.

Every entry is written with one `os.write` on a descriptor opened with
O_APPEND (under an advisory lock), so several processes can log at once
without interleaving lines; a line torn by a full disk or a kill is never
merged with the next one (statefs.append_state starts a fresh line), and
readers skip it.  The files are reached without following a symlink under the
state dir.  When the state cannot be written the event is dropped and the
user is told once: logging never stops a command or a recipe.
Formatting (pure) is separate from writing.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from faultlens.classifier.lazyre import lazy_compile
from faultlens.classifier.redact import scrub

from . import statedir, statefs
from .model import DEFAULT_TASK, StateUnavailable, Workspace

if TYPE_CHECKING:
    from faultlens.classifier.record import FailureRecord

EVENTS = (
    "failure.classified",
    "recovery.attempted",
    "recovery.succeeded",
    "recovery.escalated",
    "recovery.skipped",
    "recovery.applied",  # a fix made that nothing verified yet (recipes/confirm.py)
    "recovery.reverted",  # a fix that failed verification was reverted (recipes/revert.py)
    "failure.triaged",  # whose failure it is: the verdict and why (recipes/triage_stage.py)
)
# Events about the workspace state itself (no record): an interrupted apply or
# git operation rolled back, a user's later edit kept, a journal or ledger
# that this machine did not write refused (see recipes/crash_restore.py).
STATE_EVENTS = (
    "state.recovered",
    "state.kept",
    "state.refused",
)
MAX_EVENTS_READ = 512 * 1024 * 1024

# The phase a failure of each category interrupts (the seed's `Phase:` line).
PHASES: dict[str, str] = {
    "compile": "build",
    "test": "test",
    "branch_divergence": "merge",
    "trust_gate": "review",
    "mcp_startup": "startup",
    "plugin_startup": "startup",
    "infra": "infrastructure",
    "prompt_delivery": "dispatch",
}

_SAFE_TASK = lazy_compile(r"[^A-Za-z0-9._-]+")


def timestamp(now: datetime) -> str:
    """`2026-01-20T10:25:00Z` (UTC, seconds)."""
    return now.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def task_file_name(task: str | None) -> str:
    """A task id made safe as a file name (`TASK-007` stays `TASK-007`)."""
    name = _SAFE_TASK.sub("_", task or DEFAULT_TASK).strip("._") or DEFAULT_TASK
    return name[:80]


def _one_line(text: str) -> str:
    return " ".join(text.split())


def location(record: FailureRecord) -> str:
    if not record.source_file:
        return ""
    loc = record.source_file
    if record.source_line:
        loc += f":{record.source_line}"
    return loc


def error_block(
    now: datetime,
    worker: str,
    task: str | None,
    phase: str,
    error: str,
    details: str,
    action: str,
) -> str:
    """The seed's ERROR entry (header line, then Phase/Error/Details/Action)."""
    return (
        f"[{timestamp(now)}] ERROR {worker} {task or DEFAULT_TASK} {phase}\n"
        f"  Phase: {phase}\n"
        f"  Error: {_one_line(error)}\n"
        f"  Details: {_one_line(details)}\n"
        f"  Action: {_one_line(action)}\n"
        "\n"
    )


def line(now: datetime, level: str, text: str) -> str:
    """The seed's one-line entry: `[ts] INFO user selected: retry`."""
    return f"[{timestamp(now)}] {level} {_one_line(text)}\n\n"


def details_of(record: FailureRecord, extra: str = "") -> str:
    parts = []
    loc = location(record)
    if loc:
        parts.append(loc)
    parts.append(f"{record.failure_type.value}, {record.severity.value}")
    if record.tool:
        parts.append(f"tool {record.tool}")
    parts.append(f"id {record.id}")
    if extra:
        parts.append(extra)
    return "; ".join(parts)


def text_entry(
    event: str, record: FailureRecord, now: datetime, worker: str, extra: Mapping[str, Any]
) -> tuple[str, bool]:
    """The session-log text for one event, and whether it is an ERROR block
    (which also goes to the task's error log)."""
    ft = record.failure_type.value
    phase = str(extra.get("phase") or PHASES.get(ft, ft))
    task = record.task or DEFAULT_TASK
    if event == "failure.classified":
        action = str(extra.get("action") or f"Classified as {ft}; recipe {record.recipe}")
        return (
            error_block(now, worker, task, phase, record.signal, details_of(record), action),
            True,
        )
    if event == "recovery.attempted":
        tried = extra.get("tried") or record.recipe
        return line(
            now, "INFO", f"{worker} attempting recipe {ft} for {task} ({record.id}): {tried}"
        ), False
    if event == "recovery.succeeded":
        note = extra.get("note") or extra.get("reason") or "recovered"
        return line(now, "INFO", f"{worker} recovered {task} {ft} ({record.id}): {note}"), False
    if event == "recovery.applied":
        reason = extra.get("reason") or "applied, not verified"
        return line(now, "INFO", f"{worker} applied {task} {ft} ({record.id}): {reason}"), False
    if event == "recovery.skipped":
        reason = extra.get("reason") or "skipped"
        return line(now, "WARN", f"{worker} skipped {task} {ft} ({record.id}): {reason}"), False
    if event == "recovery.escalated":
        tried = str(extra.get("tried") or "nothing")
        reason = str(extra.get("reason") or "")
        options = extra.get("options") or []
        labels = ", ".join(str(o) for o in options) or "human review"
        return (
            error_block(
                now,
                worker,
                task,
                phase,
                record.signal,
                details_of(
                    record, f"tried: {tried}; failed: {reason}" if reason else f"tried: {tried}"
                ),
                f"Escalated; offering {labels}",
            ),
            True,
        )
    if event == "recovery.reverted":
        note = extra.get("reason") or "reverted"
        return line(
            now, "INFO", f"{worker} reverted the fix of {task} {ft} ({record.id}): {note}"
        ), False
    if event == "failure.triaged":
        verdict = str(extra.get("verdict") or "unknown").replace("_", " ")
        reason = extra.get("reason")
        note = f"{verdict}: {reason}" if reason else verdict
        return line(now, "INFO", f"{worker} triaged {task} {ft} ({record.id}): {note}"), False
    return line(now, "INFO", f"{worker} {event} {task} {ft} ({record.id})"), False


def unwritable(ws: Workspace, exc: BaseException) -> None:
    """Say once per state dir that the state cannot be written, and why."""
    where = str(ws.state_dir)
    why = str(exc) if isinstance(exc, StateUnavailable) else statefs.describe(exc)
    if ws.state_problem is None and ws.state_dir is not None and ws.state_dir.is_dir():
        probed = statefs.probe_writable(ws.state_dir)
        if probed is not None and probed not in why:
            why = f"{probed}: {why}"
    statefs.report(
        f"state cannot be written in {where} ({why}); going on without it",
        once=f"unwritable:{where}",
    )


def _json_line(obj: dict[str, Any]) -> str:
    """One events.jsonl line of an object `scrub` has redacted (every command
    in it as an argv, every string as text)."""
    return json.dumps(obj, ensure_ascii=False, default=str) + "\n"


SESSIONS_TAIL = 1024 * 1024  # how much of events.jsonl `sessions()` reads
# The workers that are faultlens' own fronts, not agents (`sessions()` leaves
# them out unless they name a session): the language server, the CLI, the demo.
OWN_WORKERS = frozenset({"faultlens", "cli", "demo"})


class EventLog:
    """Writes events and text logs for one workspace."""

    def __init__(self, ws: Workspace) -> None:
        self.ws = ws
        assert ws.state_dir is not None
        self.events_path = ws.state_dir / "events.jsonl"
        self.logs_dir = ws.state_dir / "logs"
        self._paths: dict[tuple[str, str | None], str] = {}  # (kind, key) -> state-relative

    def _session_rel(self, now: datetime) -> str:
        day = f"{now.astimezone(UTC):%Y-%m-%d}"
        rel = self._paths.get(("session", day))
        if rel is None:
            rel = self._paths[("session", day)] = f"logs/session-{day}.log"
        return rel

    def _error_rel(self, task: str | None) -> str:
        rel = self._paths.get(("errors", task))
        if rel is None:
            rel = self._paths[("errors", task)] = f"logs/errors/{task_file_name(task)}-failure.log"
        return rel

    def session_log(self, now: datetime) -> Path:
        return self.events_path.parent / self._session_rel(now)

    def error_log(self, task: str | None) -> Path:
        return self.events_path.parent / self._error_rel(task)

    def _write(self, writes: Mapping[str, str]) -> None:
        """Append each text to its state-relative file; on a state problem,
        say so once and drop the rest (logging never stops the caller)."""
        try:
            state = self.ws.state
            statedir.ensure(state)
            # The logs' one sink: a JSON line was redacted value by value
            # (`_json_line`), every text line is redacted here.
            data = {
                rel: (text if rel == "events.jsonl" else scrub(text)).encode("utf-8", "replace")
                for rel, text in writes.items()
            }
            statefs.append_many(state, data)
        except (OSError, StateUnavailable) as exc:
            unwritable(self.ws, exc)

    def emit(self, event: str, record: FailureRecord, **extra: Any) -> dict[str, Any]:
        """Write one event (JSON line + text log).  Returns the JSON object."""
        obj, entries = self._entries(event, record, extra)
        writes: dict[str, str] = {}
        for rel, text in entries:
            writes[rel] = writes.get(rel, "") + text
        self._write(writes)
        return obj

    def emit_many(
        self, event: str, records: Sequence[FailureRecord], **extra: Any
    ) -> list[dict[str, Any]]:
        """`emit` for each record, in order, with the same extra fields: the
        same entries, but each file gets one write holding all of its entries
        (a run's hundreds of records cost three appends, not three per record)."""
        objs: list[dict[str, Any]] = []
        by_file: dict[str, list[str]] = {}
        for record in records:
            obj, entries = self._entries(event, record, dict(extra))
            objs.append(obj)
            for rel, text in entries:
                by_file.setdefault(rel, []).append(text)
        self._write({rel: "".join(texts) for rel, texts in by_file.items()})
        return objs

    def _entries(
        self, event: str, record: FailureRecord, extra: dict[str, Any]
    ) -> tuple[dict[str, Any], list[tuple[str, str]]]:
        """The JSON object of one event, and what goes to which file."""
        if event not in EVENTS:
            raise ValueError(f"unknown event {event!r}")
        now = self.ws.settings.clock()
        worker = str(extra.pop("worker", None) or self.ws.settings.worker)
        obj: dict[str, Any] = {
            "ts": timestamp(now),
            "event": event,
            "failure_id": record.id,
            "failure_type": record.failure_type.value,
            "task": record.task or DEFAULT_TASK,
            "worker": worker,
            "pid": os.getpid(),
        }
        if self.ws.settings.session:
            obj["session"] = self.ws.settings.session
        obj.update({k: v for k, v in extra.items() if k not in obj})
        obj["record"] = record.to_json()
        obj = scrub(obj)  # what is written and what the caller gets back: redacted
        entries = [("events.jsonl", _json_line(obj))]
        text, is_error = text_entry(event, record, now, worker, extra)
        entries.append((self._session_rel(now), text))
        if is_error:
            entries.append((self._error_rel(record.task), text))
        return obj, entries

    def info(self, text: str, *, level: str = "INFO", task: str | None = None) -> None:
        """A free-form line in the session log (`INFO user selected: retry`); also in
        the task's error log when `task` is given."""
        now = self.ws.settings.clock()
        entry = line(now, level, text)
        writes = {self._session_rel(now): entry}
        if task is not None:
            writes[self._error_rel(task)] = entry
        self._write(writes)

    def notice(self, event: str, message: str, **fields: Any) -> dict[str, Any]:
        """A state event (STATE_EVENTS): a JSON line without a record, and a
        WARN line in the session log."""
        if event not in STATE_EVENTS:
            raise ValueError(f"unknown state event {event!r}")
        now = self.ws.settings.clock()
        obj: dict[str, Any] = {
            "ts": timestamp(now),
            "event": event,
            "worker": self.ws.settings.worker,
            "pid": os.getpid(),
            "message": message,
        }
        obj.update({k: v for k, v in fields.items() if k not in obj})
        obj = scrub(obj)
        self._write(
            {
                "events.jsonl": _json_line(obj),
                self._session_rel(now): line(now, "WARN", message),
            }
        )
        return obj

    def sessions(self, tail_bytes: int = SESSIONS_TAIL) -> list[dict[str, Any]]:
        """The agent sessions (worker + session id) in the newest events, newest
        first: how many events each wrote and when the last was.  Reads at most
        the last `tail_bytes` of the log (the first, possibly partial, line of
        that tail is skipped)."""
        try:
            with open(self.events_path, "rb") as fh:
                size = fh.seek(0, os.SEEK_END)
                fh.seek(max(0, size - tail_bytes))
                raw = fh.read()
        except FileNotFoundError:
            return []
        lines = raw.splitlines()
        if tail_bytes < size and lines:
            lines = lines[1:]
        seen: dict[tuple[str, str | None], dict[str, Any]] = {}
        for ln in lines:
            try:
                event = json.loads(ln)
            except ValueError:
                continue
            if not isinstance(event, dict):
                continue
            worker, session = event.get("worker"), event.get("session")
            if not session and (not worker or worker in OWN_WORKERS):
                continue  # not an agent: the CLI, the editor, the demo
            key = (str(worker), str(session) if session else None)
            entry = seen.pop(key, None) or {"worker": key[0], "session": key[1], "events": 0}
            entry["events"] += 1
            entry["last"] = str(event.get("ts", ""))
            seen[key] = entry  # re-inserted: the dict ends with the newest
        return list(reversed(seen.values()))

    def read_events(self) -> list[dict[str, Any]]:
        """Every event written so far (a torn line, or anything that is not a
        JSON object, is skipped)."""
        try:
            raw = statefs.read_state(self.ws.state, "events.jsonl", MAX_EVENTS_READ)
        except (OSError, StateUnavailable):
            return []
        out = []
        for ln in raw.decode("utf-8", "replace").splitlines():
            try:
                obj = json.loads(ln)
            except ValueError:
                continue
            if isinstance(obj, dict):
                out.append(obj)
        return out

"""The lifecycle log: machine-readable events and the second seed's text logs.

* `state_dir/events.jsonl`: one JSON object per line, events
  failure.classified, recovery.attempted, recovery.succeeded,
  recovery.escalated, recovery.skipped, each carrying the record.
* `state_dir/logs/session-YYYY-MM-DD.log`: every event in the seed's format.
* `state_dir/logs/errors/<TASK>-failure.log`: the ERROR blocks of one task.

Every entry is written with one `os.write` on a descriptor opened with
O_APPEND, so several processes can log at once without interleaving lines.
Formatting (pure) is separate from writing.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from . import statedir
from .model import DEFAULT_TASK, Workspace

if TYPE_CHECKING:
    from faultlens.classifier.record import FailureRecord

EVENTS = (
    "failure.classified",
    "recovery.attempted",
    "recovery.succeeded",
    "recovery.escalated",
    "recovery.skipped",
)

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

_SAFE_TASK = re.compile(r"[^A-Za-z0-9._-]+")


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
    return line(now, "INFO", f"{worker} {event} {task} {ft} ({record.id})"), False


def _append(path: Path, data: str) -> None:
    """Append `data` with a single write on an O_APPEND descriptor."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    try:
        raw = data.encode("utf-8", "replace")
        written = os.write(fd, raw)
        if written != len(raw):  # pragma: no cover - only on a full disk
            os.write(fd, raw[written:])
    finally:
        os.close(fd)


class EventLog:
    """Writes events and text logs for one workspace."""

    def __init__(self, ws: Workspace) -> None:
        self.ws = ws
        self.events_path = ws.state / "events.jsonl"
        self.logs_dir = ws.state / "logs"
        self._paths: dict[tuple[str, str | None], Path] = {}  # (kind, key) -> path, made once

    def session_log(self, now: datetime) -> Path:
        day = f"{now.astimezone(UTC):%Y-%m-%d}"
        path = self._paths.get(("session", day))
        if path is None:
            path = self._paths[("session", day)] = self.logs_dir / f"session-{day}.log"
        return path

    def error_log(self, task: str | None) -> Path:
        path = self._paths.get(("errors", task))
        if path is None:
            name = f"{task_file_name(task)}-failure.log"
            path = self._paths[("errors", task)] = self.logs_dir / "errors" / name
        return path

    def emit(self, event: str, record: FailureRecord, **extra: Any) -> dict[str, Any]:
        """Write one event (JSON line + text log).  Returns the JSON object."""
        statedir.ensure(self.ws.state)
        obj, entries = self._entries(event, record, extra)
        for path, text in entries:
            _append(path, text)
        return obj

    def emit_many(
        self, event: str, records: Sequence[FailureRecord], **extra: Any
    ) -> list[dict[str, Any]]:
        """`emit` for each record, in order, with the same extra fields: the
        same entries, but each file gets one write holding all of its entries
        (a run's hundreds of records cost three appends, not three per record)."""
        statedir.ensure(self.ws.state)
        objs: list[dict[str, Any]] = []
        by_file: dict[Path, list[str]] = {}
        for record in records:
            obj, entries = self._entries(event, record, dict(extra))
            objs.append(obj)
            for path, text in entries:
                by_file.setdefault(path, []).append(text)
        for path, texts in by_file.items():
            _append(path, "".join(texts))
        return objs

    def _entries(
        self, event: str, record: FailureRecord, extra: dict[str, Any]
    ) -> tuple[dict[str, Any], list[tuple[Path, str]]]:
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
        obj.update({k: v for k, v in extra.items() if k not in obj})
        obj["record"] = record.to_json()
        entries = [(self.events_path, json.dumps(obj, ensure_ascii=False, default=str) + "\n")]
        text, is_error = text_entry(event, record, now, worker, extra)
        entries.append((self.session_log(now), text))
        if is_error:
            entries.append((self.error_log(record.task), text))
        return obj, entries

    def info(self, text: str, *, level: str = "INFO", task: str | None = None) -> None:
        """A free-form line in the session log (`INFO user selected: retry`); also in
        the task's error log when `task` is given."""
        statedir.ensure(self.ws.state)
        now = self.ws.settings.clock()
        entry = line(now, level, text)
        _append(self.session_log(now), entry)
        if task is not None:
            _append(self.error_log(task), entry)

    def read_events(self) -> list[dict[str, Any]]:
        """Every event written so far (skips a torn last line)."""
        try:
            raw = self.events_path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return []
        out = []
        for ln in raw.splitlines():
            try:
                out.append(json.loads(ln))
            except ValueError:
                continue
        return out

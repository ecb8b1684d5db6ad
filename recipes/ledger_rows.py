"""The ledger's rows as Python values (attempts, type attempts, runs) and the
JSON `status` shows of them; the task key every query uses; the id prefixes
`find_record` takes (`AmbiguousId`)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .model import DEFAULT_TASK


def task_key(task: str | None) -> str:
    return task or DEFAULT_TASK


@dataclass(slots=True)
class AttemptRow:
    id: int
    failure_id: str
    task: str
    failure_type: str
    automatic: bool
    state: str
    tried: str
    reason: str
    record: dict[str, Any] | None
    outcome: dict[str, Any] | None
    pid: int
    created: float
    finished: float | None
    generation: int = 0
    run_id: int | None = None


@dataclass(slots=True)
class TypeAttemptRow:
    id: int
    task: str
    generation: int
    run_id: int
    failure_type: str
    state: str
    failure_ids: list[str]
    changed: bool
    tried: str
    reason: str
    pid: int
    created: float
    finished: float | None


@dataclass(slots=True)
class RunRow:
    id: int
    task: str
    argv: list[str]
    cwd: str
    exit_code: int | None
    started: float
    finished: float | None


MIN_ID_PREFIX = 4  # characters of a failure id that may stand for it


class AmbiguousId(LookupError):
    """An id prefix too short, or naming several failures; the text is one line
    listing (up to 8 of) the matches."""

    def __init__(self, prefix: str, matches: Sequence[str]) -> None:
        self.prefix, self.matches = prefix, list(matches)
        shown = ", ".join(matches[:8]) + (", ..." if len(matches) > 8 else "")
        if len(prefix) < MIN_ID_PREFIX:
            why = f"an id prefix needs at least {MIN_ID_PREFIX} characters"
        else:
            why = f"{prefix!r} names {'more than 8' if len(matches) > 8 else len(matches)} failures"
        super().__init__(f"{why}; give more of the id (matches: {shown})")


def like_prefix(prefix: str) -> str:
    return prefix.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"


def attempt_row(row: Sequence[Any]) -> AttemptRow:
    return AttemptRow(
        id=int(row[0]),
        failure_id=row[1],
        task=row[2],
        failure_type=row[3],
        automatic=bool(row[4]),
        state=row[5],
        tried=row[6],
        reason=row[7],
        record=json.loads(row[8]) if row[8] else None,
        outcome=json.loads(row[9]) if row[9] else None,
        pid=int(row[10]),
        created=float(row[11]),
        finished=float(row[12]) if row[12] is not None else None,
        generation=int(row[13]) if len(row) > 13 and row[13] is not None else 0,
        run_id=int(row[14]) if len(row) > 14 and row[14] is not None else None,
    )


def type_attempt_row(row: Sequence[Any]) -> TypeAttemptRow:
    return TypeAttemptRow(
        id=int(row[0]),
        task=row[1],
        generation=int(row[2]),
        run_id=int(row[3]),
        failure_type=row[4],
        state=row[5],
        failure_ids=[str(x) for x in json.loads(row[6])],
        changed=bool(row[7]),
        tried=row[8],
        reason=row[9],
        pid=int(row[10]),
        created=float(row[11]),
        finished=float(row[12]) if row[12] is not None else None,
    )


def attempt_json(row: Sequence[Any]) -> dict[str, Any]:
    a = attempt_row(row)
    return {
        "id": a.id,
        "failure_id": a.failure_id,
        "task": a.task,
        "failure_type": a.failure_type,
        "automatic": a.automatic,
        "state": a.state,
        "tried": a.tried,
        "reason": a.reason,
        "record": a.record,
        "box": (a.outcome or {}).get("box"),
        "created": a.created,
    }


def run_row(row: Sequence[Any]) -> RunRow:
    return RunRow(
        id=int(row[0]),
        task=row[1],
        argv=json.loads(row[2]),
        cwd=row[3],
        exit_code=None if row[4] is None else int(row[4]),
        started=float(row[5]),
        finished=None if row[6] is None else float(row[6]),
    )


def run_json(row: Sequence[Any]) -> dict[str, Any]:
    r = run_row(row)
    return {
        "id": r.id,
        "task": r.task,
        "argv": r.argv,
        "cwd": r.cwd,
        "exit_code": r.exit_code,
        "started": r.started,
        "finished": r.finished,
    }

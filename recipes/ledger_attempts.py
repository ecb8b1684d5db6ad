"""The ledger's attempt queries: one automatic attempt per failure (`claim`)
and one per failure type in a run (`claim_type`), their results, and the
attempts read back (history, pending, applied and not yet verified)."""

from __future__ import annotations

import json
import os
import sqlite3
import time
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from faultlens.classifier.redact import redact_commands

from .ledger_db import LedgerConnections
from .ledger_rows import AttemptRow, TypeAttemptRow, attempt_row, task_key, type_attempt_row

if TYPE_CHECKING:
    from faultlens.classifier.record import FailureRecord

    from .model import Outcome


class AttemptQueries(LedgerConnections):
    """The attempts part of `Ledger`."""

    # -- attempts ------------------------------------------------------------------
    def claim(
        self,
        failure_id: str,
        task: str | None,
        failure_type: str,
        record: FailureRecord | None = None,
        *,
        automatic: bool = True,
        run_id: int | None = None,
    ) -> int | None:
        """Reserve the attempt before the recipe plans anything.  Returns the
        attempt's row id, or None when an automatic attempt for (failure_id, task)
        exists in the task's current generation."""
        key = task_key(task)
        with self._tx() as db:
            cur = db.execute(
                "INSERT OR IGNORE INTO attempts"
                "(failure_id, task, failure_type, automatic, state, record, pid, created,"
                " generation, run_id)"
                " VALUES (?, ?, ?, ?, 'pending', ?, ?, ?, ?, ?)",
                (
                    failure_id,
                    key,
                    failure_type,
                    int(automatic),
                    json.dumps(redact_commands(record.to_json())) if record is not None else None,
                    os.getpid(),
                    time.time(),
                    self._generation(db, key),
                    run_id,
                ),
            )
            if cur.rowcount != 1:
                return None
            self._touch_task(db, key)
            return int(cur.lastrowid or 0)

    @staticmethod
    def _generation(db: sqlite3.Connection, task: str) -> int:
        row = db.execute("SELECT retries FROM tasks WHERE task=?", (task,)).fetchone()
        return int(row[0]) if row else 0

    def generation(self, task: str | None) -> int:
        """The task's attempt generation: how many retries a human granted it."""
        with self._read() as db:
            return self._generation(db, task_key(task))

    # -- one attempt per failure type, per task, per run ---------------------------
    def claim_type(
        self, task: str | None, run_id: int, failure_type: str, failure_ids: Sequence[str]
    ) -> int | None:
        """Reserve the one attempt of `failure_type` in this run of the task (before
        planning).  None when it was already made (or is being made) elsewhere."""
        key = task_key(task)
        with self._tx() as db:
            cur = db.execute(
                "INSERT OR IGNORE INTO type_attempts(task, generation, run_id, failure_type,"
                " state, failure_ids, pid, created) VALUES (?, ?, ?, ?, 'pending', ?, ?, ?)",
                (
                    key,
                    self._generation(db, key),
                    run_id,
                    failure_type,
                    json.dumps(list(failure_ids)),
                    os.getpid(),
                    time.time(),
                ),
            )
            if cur.rowcount != 1:
                return None
            self._touch_task(db, key)
            return int(cur.lastrowid or 0)

    def finish_type(
        self, type_attempt_id: int, state: str, tried: str, reason: str, *, changed: bool
    ) -> None:
        with self._tx() as db:
            db.execute(
                "UPDATE type_attempts SET state=?, tried=?, reason=?, changed=?, finished=?"
                " WHERE id=?",
                (state, tried, reason, int(changed), time.time(), type_attempt_id),
            )

    def type_attempts(self, task: str | None, run_id: int | None = None) -> list[TypeAttemptRow]:
        """The type-level attempts of a task (of one run, or of every run), oldest first."""
        with self._read() as db:
            if run_id is None:
                rows = db.execute(
                    "SELECT * FROM type_attempts WHERE task=? ORDER BY id", (task_key(task),)
                ).fetchall()
            else:
                rows = db.execute(
                    "SELECT * FROM type_attempts WHERE task=? AND run_id=? ORDER BY id",
                    (task_key(task), run_id),
                ).fetchall()
        return [type_attempt_row(r) for r in rows]

    def finish(self, attempt_id: int, outcome: Outcome) -> None:
        """Store the result of a claimed attempt."""
        with self._tx() as db:
            db.execute(
                "UPDATE attempts SET state=?, tried=?, reason=?, record=?, outcome=?, finished=?"
                " WHERE id=?",
                (
                    outcome.result,
                    outcome.tried,
                    outcome.reason,
                    json.dumps(redact_commands(outcome.record.to_json())),
                    json.dumps(redact_commands(outcome.to_json())),
                    time.time(),
                    attempt_id,
                ),
            )
            if outcome.result == "escalated":
                self._set_status(db, task_key(outcome.record.task), "failed", only_if="active")

    def record_attempt(self, outcome: Outcome, *, automatic: bool = True) -> bool:
        """Claim and finish in one step.  False when an automatic attempt for this
        failure and task was already recorded (nothing is written then)."""
        rec = outcome.record
        attempt_id = self.claim(rec.id, rec.task, rec.failure_type.value, rec, automatic=automatic)
        if attempt_id is None:
            return False
        self.finish(attempt_id, outcome)
        return True

    def attempts(self, failure_id: str, task: str | None = None) -> int:
        """How many attempts (automatic or by hand) exist for a failure (in a task,
        or in any task when `task` is None)."""
        with self._read() as db:
            if task is None:
                row = db.execute(
                    "SELECT COUNT(*) FROM attempts WHERE failure_id=?", (failure_id,)
                ).fetchone()
            else:
                row = db.execute(
                    "SELECT COUNT(*) FROM attempts WHERE failure_id=? AND task=?",
                    (failure_id, task_key(task)),
                ).fetchone()
        return int(row[0])

    def automatic_attempt(self, failure_id: str, task: str | None) -> AttemptRow | None:
        """The automatic attempt of a failure in the task's current generation."""
        key = task_key(task)
        with self._read() as db:
            row = db.execute(
                "SELECT * FROM attempts WHERE failure_id=? AND task=? AND automatic=1"
                " AND generation=?",
                (failure_id, key, self._generation(db, key)),
            ).fetchone()
        return attempt_row(row) if row else None

    def history(self, failure_id: str | None = None, limit: int = 200) -> list[AttemptRow]:
        """Attempts, newest first (of one failure, or all)."""
        with self._read() as db:
            if failure_id is None:
                rows = db.execute(
                    "SELECT * FROM attempts ORDER BY id DESC LIMIT ?", (limit,)
                ).fetchall()
            else:
                rows = db.execute(
                    "SELECT * FROM attempts WHERE failure_id=? ORDER BY id DESC LIMIT ?",
                    (failure_id, limit),
                ).fetchall()
        return [attempt_row(r) for r in rows]

    def pending_attempts(self, limit: int = 1000) -> list[AttemptRow]:
        """Attempts claimed and never finished, oldest first (the start-up
        recovery closes those whose process is gone: recipes/crash_restore.py)."""
        with self._read() as db:
            rows = db.execute(
                "SELECT * FROM attempts WHERE state='pending' ORDER BY id LIMIT ?", (limit,)
            ).fetchall()
        return [attempt_row(r) for r in rows]

    def applied_attempts(self, task: str | None, limit: int = 1000) -> list[AttemptRow]:
        """The task's attempts whose fix was applied and not verified yet (state
        "applied"), oldest first: the next run of their failure decides them."""
        with self._read() as db:
            rows = db.execute(
                "SELECT * FROM attempts WHERE state='applied' AND task=? ORDER BY id LIMIT ?",
                (task_key(task), limit),
            ).fetchall()
        return [attempt_row(r) for r in rows]

    def settle_applied(self, attempt_id: int, state: str, reason: str) -> bool:
        """Decide an "applied" attempt (recovered | escalated) from a later run;
        False when it was decided meanwhile (another process).  Its stored
        outcome gets the new result and reason, marked verified."""
        with self._tx() as db:
            row = db.execute(
                "SELECT outcome, task FROM attempts WHERE id=? AND state='applied'", (attempt_id,)
            ).fetchone()
            if row is None:
                return False
            outcome = json.loads(row[0]) if row[0] else {}
            outcome.update({"result": state, "reason": reason, "verified": True})
            db.execute(
                "UPDATE attempts SET state=?, reason=?, outcome=?, finished=? WHERE id=?",
                (state, reason, json.dumps(outcome), time.time(), attempt_id),
            )
            if state == "escalated":
                self._set_status(db, row[1], "failed", only_if="active")
        return True

    def last_outcome(self, failure_id: str) -> dict[str, Any] | None:
        """The stored Outcome data (result, tried, reason, options, box, record) of the
        newest finished attempt for a failure, or None."""
        with self._read() as db:
            row = db.execute(
                "SELECT outcome FROM attempts WHERE failure_id=? AND outcome IS NOT NULL"
                " ORDER BY id DESC LIMIT 1",
                (failure_id,),
            ).fetchone()
        return json.loads(row[0]) if row else None

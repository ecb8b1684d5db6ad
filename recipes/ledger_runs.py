"""The ledger's task and run queries: a task's status and retries, the runs
and the records each produced (looked up by id or id prefix), and the
`status` summary of everything (`faultlens status`, the server)."""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from faultlens.classifier.redact import redact_argv, redact_commands

from .ledger_db import LedgerConnections
from .ledger_rows import (
    MIN_ID_PREFIX,
    AmbiguousId,
    RunRow,
    attempt_json,
    like_prefix,
    run_json,
    run_row,
    task_key,
)
from .lifecycle.tally import state_counts

if TYPE_CHECKING:
    from faultlens.classifier.record import FailureRecord


class RunQueries(LedgerConnections):
    """The tasks, runs and status part of `Ledger`."""

    # -- tasks -------------------------------------------------------------------------
    def task(self, task: str | None) -> tuple[str, int, str]:
        """(status, retries used, note) of a task; ('active', 0, '') when unknown."""
        with self._read() as db:
            row = db.execute(
                "SELECT status, retries, note FROM tasks WHERE task=?", (task_key(task),)
            ).fetchone()
        return (str(row[0]), int(row[1]), str(row[2])) if row else ("active", 0, "")

    def task_retries(self, task: str | None) -> int:
        return self.task(task)[1]

    def note_retry(self, task: str | None, max_retries: int) -> tuple[bool, int]:
        """Count one more retry of a task if the limit allows: (accepted, retries used)."""
        key = task_key(task)
        with self._tx() as db:
            self._touch_task(db, key)
            row = db.execute("SELECT retries FROM tasks WHERE task=?", (key,)).fetchone()
            used = int(row[0])
            if used >= max_retries:
                return False, used
            db.execute(
                "UPDATE tasks SET retries=retries+1, status='retrying', updated=? WHERE task=?",
                (time.time(), key),
            )
            return True, used + 1

    def set_task_status(self, task: str | None, status: str, note: str = "") -> None:
        with self._tx() as db:
            self._set_status(db, task_key(task), status)
            if note:
                db.execute("UPDATE tasks SET note=? WHERE task=?", (note, task_key(task)))

    # -- runs ----------------------------------------------------------------------------
    def start_run(self, task: str | None, argv: Sequence[str], cwd: str) -> int:
        """Record a run; its argv is stored redacted (`RunRow.argv` may hold a
        masked secret: see `redact.masked_secret` before running it again)."""
        with self._tx() as db:
            self._touch_task(db, task_key(task))
            cur = db.execute(
                "INSERT INTO runs(task, argv, cwd, started) VALUES (?, ?, ?, ?)",
                (task_key(task), json.dumps(redact_argv(argv)), cwd, time.time()),
            )
            return int(cur.lastrowid or 0)

    def finish_run(
        self, run_id: int, exit_code: int | None, records: Sequence[FailureRecord]
    ) -> None:
        with self._tx() as db:
            db.execute(
                "UPDATE runs SET exit_code=?, finished=? WHERE id=?",
                (exit_code, time.time(), run_id),
            )
            db.executemany(
                "INSERT OR REPLACE INTO run_records(run_id, seq, failure_id, record)"
                " VALUES (?, ?, ?, ?)",
                [
                    (run_id, i, r.id, json.dumps(redact_commands(r.to_json())))
                    for i, r in enumerate(records)
                ],
            )

    def last_run(self, task: str | None = None) -> RunRow | None:
        with self._read() as db:
            if task is None:
                row = db.execute("SELECT * FROM runs ORDER BY id DESC LIMIT 1").fetchone()
            else:
                row = db.execute(
                    "SELECT * FROM runs WHERE task=? ORDER BY id DESC LIMIT 1", (task_key(task),)
                ).fetchone()
        return run_row(row) if row else None

    def runs_since(self, since: float, limit: int = 1000) -> list[RunRow]:
        """The runs started at `since` or later, oldest first (`faultlens report`)."""
        with self._read() as db:
            rows = db.execute(
                "SELECT * FROM runs WHERE started >= ? ORDER BY id LIMIT ?", (since, limit)
            ).fetchall()
        return [run_row(r) for r in rows]

    def run_records(self, run_id: int) -> list[dict[str, Any]]:
        with self._read() as db:
            rows = db.execute(
                "SELECT record FROM run_records WHERE run_id=? ORDER BY seq", (run_id,)
            ).fetchall()
        return [json.loads(r[0]) for r in rows]

    def find_record(self, failure_id: str) -> tuple[dict[str, Any], RunRow] | None:
        """The newest stored record whose id is `failure_id`, or, for a prefix of
        at least MIN_ID_PREFIX characters, the one failure whose id starts with
        it; AmbiguousId (naming the matches) for a shorter prefix or one that
        names several failures: an attempt is never spent on a guess."""
        query = (
            "SELECT rr.record, r.* FROM run_records rr JOIN runs r ON r.id = rr.run_id"
            " WHERE rr.failure_id = ? ORDER BY rr.run_id DESC, rr.seq LIMIT 1"
        )
        with self._read() as db:
            row = db.execute(query, (failure_id,)).fetchone()
            if row is None:
                ids = [
                    str(r[0])
                    for r in db.execute(
                        "SELECT DISTINCT failure_id FROM run_records"
                        " WHERE failure_id LIKE ? ESCAPE '\\' ORDER BY failure_id LIMIT 9",
                        (like_prefix(failure_id),),
                    )
                ]
                if not ids:
                    return None
                if len(failure_id) < MIN_ID_PREFIX or len(ids) > 1:
                    raise AmbiguousId(failure_id, ids)
                row = db.execute(query, (ids[0],)).fetchone()
        if row is None:
            return None
        return json.loads(row[0]), run_row(row[1:])

    # -- status ----------------------------------------------------------------------------
    def status(self) -> dict[str, Any]:
        """Tasks, attempts and escalations, for `faultlens status` and the server."""
        with self._read() as db:
            tasks = db.execute(
                "SELECT task, status, retries, note, updated FROM tasks ORDER BY updated"
            ).fetchall()
            counts = db.execute(
                "SELECT task, failure_id, state, generation, json_extract(record, '$.rule')"
                " FROM attempts"
            ).fetchall()
            escal = db.execute(
                "SELECT * FROM attempts WHERE state='escalated' ORDER BY id DESC LIMIT 100"
            ).fetchall()
            last = db.execute("SELECT * FROM runs ORDER BY id DESC LIMIT 1").fetchone()
        rows: dict[str, list[tuple[str, str, int, str | None]]] = {}
        for task, failure_id, state, generation, rule in counts:
            rows.setdefault(task, []).append((failure_id, state, int(generation or 0), rule))
        # one attempt counted once: a failure's places (`.2` repeats) are one failure
        by_task = {task: state_counts(r) for task, r in rows.items()}
        return {
            "tasks": [
                {
                    "task": t,
                    "status": s,
                    "retries": int(r),
                    "note": note,
                    "updated": float(u),
                    "attempts": by_task.get(t, {}),
                }
                for t, s, r, note, u in tasks
            ],
            "escalations": [attempt_json(r) for r in escal],
            "last_run": run_json(last) if last else None,
        }

"""The attempt ledger: who tried what, for which failure, in which task.

SQLite in WAL mode under the state dir (`.faultlens/ledger.sqlite3`).  Every
write is one `BEGIN IMMEDIATE` transaction on a short-lived connection with a
busy timeout, so the language server, a terminal `faultlens run` and a second
editor can share it at once without lost updates; it survives restarts because
it is a file.

The anti-loop rule lives in the schema, at two levels:

- a partial unique index allows one *automatic* attempt per (failure id, task,
  generation): `claim()` inserts that row before the recipe plans anything, so
  two processes racing for the same failure cannot both attempt it, and a
  later run meeting the same failure escalates it instead of trying again;
- `type_attempts` allows one attempt per (task, generation, run, failure
  type): `claim_type()` reserves the batch that covers every failure of that
  type in one run (all compile fixes at once, one re-run of all failing tests,
  one backoff sequence).

The generation is the task's retry count: `faultlens retry TASK` (a human's
"try again with fresh context", at most 2) opens a fresh generation, so the
task's failures get one new attempt each.

Schema changes are numbered migration steps (`_MIGRATIONS`), each applied once
in one transaction and recorded in `meta.schema`; a ledger written by a newer
faultlens is used as it is, never downgraded.
"""

from __future__ import annotations

import json
import os
import sqlite3
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from faultlens.classifier.redact import redact_argv, redact_commands

from . import ledgerguard, statedir
from .ledger_sink import ScrubbingConnection
from .lifecycle.tally import state_counts
from .model import DEFAULT_TASK, Workspace

if TYPE_CHECKING:
    from faultlens.classifier.record import FailureRecord

    from .model import Outcome

SCHEMA_VERSION = 3
BUSY_TIMEOUT_S = 30.0

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS attempts (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    failure_id TEXT NOT NULL,
    task TEXT NOT NULL,
    failure_type TEXT NOT NULL,
    automatic INTEGER NOT NULL DEFAULT 1,
    state TEXT NOT NULL,            -- pending | recovered | escalated | skipped | applied
    tried TEXT NOT NULL DEFAULT '',
    reason TEXT NOT NULL DEFAULT '',
    record TEXT,                    -- the FailureRecord as JSON
    outcome TEXT,                   -- the Outcome as JSON (incl. options and box)
    pid INTEGER NOT NULL,
    created REAL NOT NULL,
    finished REAL
);
CREATE INDEX IF NOT EXISTS attempts_by_failure ON attempts (failure_id, id);
CREATE TABLE IF NOT EXISTS tasks (
    task TEXT PRIMARY KEY,
    status TEXT NOT NULL DEFAULT 'active',
    retries INTEGER NOT NULL DEFAULT 0,
    note TEXT NOT NULL DEFAULT '',
    updated REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS runs (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    task TEXT NOT NULL,
    argv TEXT NOT NULL,
    cwd TEXT NOT NULL,
    exit_code INTEGER,
    started REAL NOT NULL,
    finished REAL
);
CREATE TABLE IF NOT EXISTS run_records (
    run_id INTEGER NOT NULL,
    seq INTEGER NOT NULL,
    failure_id TEXT NOT NULL,
    record TEXT NOT NULL,
    PRIMARY KEY (run_id, seq)
);
"""

# Step N takes a ledger at schema N-1 to schema N.  Append; never edit a step.
_MIGRATIONS: dict[int, tuple[str, ...]] = {
    2: (
        # A retried task (a new generation) gets one fresh attempt per failure.
        "ALTER TABLE attempts ADD COLUMN generation INTEGER NOT NULL DEFAULT 0",
        "ALTER TABLE attempts ADD COLUMN run_id INTEGER",
        "DROP INDEX IF EXISTS attempts_one_automatic",
        "CREATE UNIQUE INDEX IF NOT EXISTS attempts_one_automatic_v2"
        " ON attempts (failure_id, task, generation) WHERE automatic = 1",
        # One attempt per failure type, per task, per run.
        "CREATE TABLE IF NOT EXISTS type_attempts ("
        " id INTEGER PRIMARY KEY AUTOINCREMENT,"
        " task TEXT NOT NULL,"
        " generation INTEGER NOT NULL,"
        " run_id INTEGER NOT NULL,"
        " failure_type TEXT NOT NULL,"
        " state TEXT NOT NULL,"  # pending | recovered | escalated | skipped
        " failure_ids TEXT NOT NULL,"  # JSON list of the failures it covers
        " changed INTEGER NOT NULL DEFAULT 0,"  # it edited files or ran commands
        " tried TEXT NOT NULL DEFAULT '',"
        " reason TEXT NOT NULL DEFAULT '',"
        " pid INTEGER NOT NULL,"
        " created REAL NOT NULL,"
        " finished REAL,"
        " UNIQUE (task, generation, run_id, failure_type))",
    ),
    3: (
        # History (recipes/history.py): where each run happened and how each of
        # its failures ended, so a failure's occurrences can be told across runs.
        "ALTER TABLE runs ADD COLUMN head TEXT",  # `git rev-parse HEAD` at the run
        "ALTER TABLE runs ADD COLUMN tree TEXT",  # HEAD + local changes, as one key
        "ALTER TABLE run_records ADD COLUMN ended TEXT",  # recovered|escalated|skipped|flaky
        "ALTER TABLE run_records ADD COLUMN triage TEXT",  # the triage verdict
        "CREATE INDEX IF NOT EXISTS run_records_by_failure ON run_records (failure_id, run_id)",
        "CREATE INDEX IF NOT EXISTS runs_by_tree ON runs (tree, task)",
        # What an applied fix wrote (recipes/revert.py): the edit journal's
        # targets kept after the apply, so the fix can be reverted exactly.
        "CREATE TABLE IF NOT EXISTS applied_edits ("
        " id INTEGER PRIMARY KEY AUTOINCREMENT,"
        " task TEXT NOT NULL,"
        " run_id INTEGER,"
        " failure_ids TEXT NOT NULL,"  # JSON list of the failures the fix was for
        " attempt_ids TEXT NOT NULL,"  # JSON list of their attempts
        " title TEXT NOT NULL,"
        " targets TEXT NOT NULL,"  # JSON: path, original (base64), old, new (sha256), mode
        " created REAL NOT NULL,"
        " reverted REAL,"
        " revert TEXT)",  # JSON: what the revert restored and kept
    ),
}


# Ledger files whose schema this process has already created.
_READY: set[Path] = set()


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


def _use_wal(db: sqlite3.Connection) -> None:
    """Put the ledger in WAL mode (kept in the file: once is enough).

    Switching needs the file's exclusive lock, and SQLite answers "database
    is locked" at once, without its busy handler, while another process
    holds a shared one: two runs starting together on a new ledger met it
    (one went on without a ledger, so without recipes).  So retry, within
    the same time the busy handler allows."""
    deadline = time.monotonic() + BUSY_TIMEOUT_S
    while True:
        try:
            if db.execute("PRAGMA journal_mode").fetchone()[0] == "wal":
                return
            db.execute("PRAGMA journal_mode=WAL")
            return
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) or time.monotonic() > deadline:
                raise
            time.sleep(0.02)


# Per-thread read connections (see Ledger._read).
_READERS = threading.local()


class Ledger:
    """The attempt ledger of one workspace (one SQLite file)."""

    def __init__(self, path: Path) -> None:
        """Open (and make) the ledger.  StateUnavailable when it cannot be
        used (read-only or full, a symlink); a ledger this machine did not
        make is moved aside first (recipes/ledgerguard.py)."""
        self.path = path
        if path in _READY and ledgerguard.ready(path):
            return  # schema already made (and the file checked) by this process
        ledgerguard.check_files(path)
        with ledgerguard.state_errors(path):
            statedir.ensure(path.parent)
            ledgerguard.adopt(path)
        with self._connect() as db:
            _use_wal(db)
        with self._tx() as db:
            for stmt in _SCHEMA.split(";"):
                if stmt.strip():
                    db.execute(stmt)
            _migrate(db)
            ledgerguard.sign_new(db, self.path)
        _READY.add(path)
        ledgerguard.mark_ready(path)

    @classmethod
    def open(cls, ws: Workspace) -> Ledger:
        return cls(ws.state / "ledger.sqlite3")

    # -- connections -------------------------------------------------------------
    @contextmanager
    def _connect(self) -> Iterator[sqlite3.Connection]:
        with ledgerguard.state_errors(self.path):
            db = sqlite3.connect(
                self.path,
                timeout=BUSY_TIMEOUT_S,
                isolation_level=None,
                factory=ScrubbingConnection,  # the sink: no write stores a secret
            )
            try:
                db.execute(f"PRAGMA busy_timeout={int(BUSY_TIMEOUT_S * 1000)}")
                db.execute("PRAGMA synchronous=NORMAL")
                db.execute("PRAGMA trusted_schema=OFF")
                yield db
            finally:
                db.close()

    @contextmanager
    def _tx(self) -> Iterator[sqlite3.Connection]:
        """One write transaction, taken with BEGIN IMMEDIATE (writer lock up front)."""
        with self._connect() as db:
            for attempt in range(50):
                try:
                    db.execute("BEGIN IMMEDIATE")
                    break
                except sqlite3.OperationalError as exc:  # busy beyond the timeout
                    if "locked" not in str(exc) or attempt == 49:
                        raise
                    time.sleep(0.05)
            try:
                yield db
            except BaseException:
                db.execute("ROLLBACK")
                raise
            db.execute("COMMIT")

    @contextmanager
    def _read(self) -> Iterator[sqlite3.Connection]:
        """A read connection kept per thread (and process) and per ledger file.

        Reads are single autocommit statements, so under WAL each one sees
        every transaction committed before it; keeping the connection saves
        the open + pragmas that dominated a hover's ledger lookups."""
        cache: dict[Path, tuple[int, int, sqlite3.Connection]] = _READERS.__dict__.setdefault(
            "by_path", {}
        )
        with ledgerguard.state_errors(self.path):
            inode = self.path.stat().st_ino  # a ledger removed and made again is a new file
            held = cache.get(self.path)
            if held is None or held[0] != os.getpid() or held[1] != inode:
                if held is not None and held[0] == os.getpid():
                    held[2].close()
                db = sqlite3.connect(self.path, timeout=BUSY_TIMEOUT_S, isolation_level=None)
                db.execute(f"PRAGMA busy_timeout={int(BUSY_TIMEOUT_S * 1000)}")
                db.execute("PRAGMA trusted_schema=OFF")
                held = (os.getpid(), inode, db)
                cache[self.path] = held
            yield held[2]

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
        return [_type_attempt(r) for r in rows]

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
        return _attempt(row) if row else None

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
        return [_attempt(r) for r in rows]

    def pending_attempts(self, limit: int = 1000) -> list[AttemptRow]:
        """Attempts claimed and never finished, oldest first (the start-up
        recovery closes those whose process is gone: recipes/crash_restore.py)."""
        with self._read() as db:
            rows = db.execute(
                "SELECT * FROM attempts WHERE state='pending' ORDER BY id LIMIT ?", (limit,)
            ).fetchall()
        return [_attempt(r) for r in rows]

    def applied_attempts(self, task: str | None, limit: int = 1000) -> list[AttemptRow]:
        """The task's attempts whose fix was applied and not verified yet (state
        "applied"), oldest first: the next run of their failure decides them."""
        with self._read() as db:
            rows = db.execute(
                "SELECT * FROM attempts WHERE state='applied' AND task=? ORDER BY id LIMIT ?",
                (task_key(task), limit),
            ).fetchall()
        return [_attempt(r) for r in rows]

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

    # -- tasks -------------------------------------------------------------------------
    @staticmethod
    def _touch_task(db: sqlite3.Connection, task: str) -> None:
        db.execute(
            "INSERT INTO tasks(task, updated) VALUES (?, ?) "
            "ON CONFLICT(task) DO UPDATE SET updated=excluded.updated",
            (task, time.time()),
        )

    @staticmethod
    def _set_status(
        db: sqlite3.Connection, task: str, status: str, *, only_if: str | None = None
    ) -> None:
        Ledger._touch_task(db, task)
        if only_if is None:
            db.execute("UPDATE tasks SET status=? WHERE task=?", (status, task))
        else:
            db.execute(
                "UPDATE tasks SET status=? WHERE task=? AND status=?", (status, task, only_if)
            )

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
        return _run(row) if row else None

    def runs_since(self, since: float, limit: int = 1000) -> list[RunRow]:
        """The runs started at `since` or later, oldest first (`faultlens report`)."""
        with self._read() as db:
            rows = db.execute(
                "SELECT * FROM runs WHERE started >= ? ORDER BY id LIMIT ?", (since, limit)
            ).fetchall()
        return [_run(r) for r in rows]

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
                        (_like_prefix(failure_id),),
                    )
                ]
                if not ids:
                    return None
                if len(failure_id) < MIN_ID_PREFIX or len(ids) > 1:
                    raise AmbiguousId(failure_id, ids)
                row = db.execute(query, (ids[0],)).fetchone()
        if row is None:
            return None
        return json.loads(row[0]), _run(row[1:])

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
            "escalations": [_attempt_json(r) for r in escal],
            "last_run": _run_json(last) if last else None,
        }


def _migrate(db: sqlite3.Connection) -> None:
    """Bring a ledger to SCHEMA_VERSION (inside the caller's write transaction).
    A fresh file is at schema 1 after `_SCHEMA`; a newer one is left alone."""
    row = db.execute("SELECT value FROM meta WHERE key='schema'").fetchone()
    version = int(row[0]) if row and str(row[0]).isdigit() else 1
    if row is None:
        db.execute("INSERT INTO meta(key, value) VALUES ('schema', '1')")
    for step in range(version + 1, SCHEMA_VERSION + 1):
        for stmt in _MIGRATIONS[step]:
            db.execute(stmt)
        db.execute("UPDATE meta SET value=? WHERE key='schema'", (str(step),))


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


def _like_prefix(prefix: str) -> str:
    return prefix.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"


def _attempt(row: Sequence[Any]) -> AttemptRow:
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


def _type_attempt(row: Sequence[Any]) -> TypeAttemptRow:
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


def _attempt_json(row: Sequence[Any]) -> dict[str, Any]:
    a = _attempt(row)
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


def _run(row: Sequence[Any]) -> RunRow:
    return RunRow(
        id=int(row[0]),
        task=row[1],
        argv=json.loads(row[2]),
        cwd=row[3],
        exit_code=None if row[4] is None else int(row[4]),
        started=float(row[5]),
        finished=None if row[6] is None else float(row[6]),
    )


def _run_json(row: Sequence[Any]) -> dict[str, Any]:
    r = _run(row)
    return {
        "id": r.id,
        "task": r.task,
        "argv": r.argv,
        "cwd": r.cwd,
        "exit_code": r.exit_code,
        "started": r.started,
        "finished": r.finished,
    }

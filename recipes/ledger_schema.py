"""The ledger's schema: the tables as a fresh file gets them (schema 1) and
the numbered migration steps since, each applied once in the caller's write
transaction and recorded in `meta.schema`; a ledger written by a newer
faultlens is used as it is, never downgraded (recipes/ledger.py opens it).
"""

from __future__ import annotations

import sqlite3

SCHEMA_VERSION = 3

SCHEMA = """
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
MIGRATIONS: dict[int, tuple[str, ...]] = {
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


def migrate(db: sqlite3.Connection) -> None:
    """Bring a ledger to SCHEMA_VERSION (inside the caller's write transaction).
    A fresh file is at schema 1 after `SCHEMA`; a newer one is left alone."""
    row = db.execute("SELECT value FROM meta WHERE key='schema'").fetchone()
    version = int(row[0]) if row and str(row[0]).isdigit() else 1
    if row is None:
        db.execute("INSERT INTO meta(key, value) VALUES ('schema', '1')")
    for step in range(version + 1, SCHEMA_VERSION + 1):
        for stmt in MIGRATIONS[step]:
            db.execute(stmt)
        db.execute("UPDATE meta SET value=? WHERE key='schema'", (str(step),))

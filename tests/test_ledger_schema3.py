"""Ledger schema step 3 (history and revert): a schema-2 ledger is brought
forward in place and keeps its runs and records."""

from __future__ import annotations

import sqlite3

from faultlens.recipes import Ledger, Workspace
from faultlens.recipes import ledger as ledger_module


def _as_schema_2(path) -> None:
    """Turn a fresh ledger (made, and marked, by this machine) back into what
    faultlens wrote at schema 2."""
    db = sqlite3.connect(path)
    for table, column in (
        ("runs", "head"),
        ("runs", "tree"),
        ("run_records", "ended"),
        ("run_records", "triage"),
    ):
        db.execute("DROP INDEX IF EXISTS run_records_by_failure")
        db.execute("DROP INDEX IF EXISTS runs_by_tree")
        db.execute(f"ALTER TABLE {table} DROP COLUMN {column}")
    db.execute("DROP TABLE applied_edits")
    db.execute("UPDATE meta SET value='2' WHERE key='schema'")
    db.commit()
    db.close()


def test_a_schema_2_ledger_gains_history_and_revert_and_keeps_its_runs(tmp_path):
    ws = Workspace.at(tmp_path)
    path = ws.state / "ledger.sqlite3"
    ledger = Ledger.open(ws)
    _as_schema_2(path)
    db = sqlite3.connect(path)
    db.execute(
        "INSERT INTO runs(task, argv, cwd, exit_code, started, finished)"
        " VALUES ('T', '[\"pytest\"]', '.', 1, 1.0, 2.0)"
    )
    db.execute("INSERT INTO run_records VALUES (1, 0, 'abc', '{\"id\": \"abc\"}')")
    db.commit()
    db.close()

    ledger_module._READY.discard(path)
    ledger = Ledger.open(ws)

    db = sqlite3.connect(path)
    assert db.execute("SELECT value FROM meta WHERE key='schema'").fetchone()[0] == "3"
    runs = {r[1] for r in db.execute("PRAGMA table_info(runs)")}
    records = {r[1] for r in db.execute("PRAGMA table_info(run_records)")}
    assert {"head", "tree"} <= runs
    assert {"ended", "triage"} <= records
    assert db.execute("SELECT COUNT(*) FROM applied_edits").fetchone()[0] == 0
    db.close()
    run = ledger.last_run("T")
    assert run is not None and run.argv == ["pytest"]
    assert ledger.run_records(run.id) == [{"id": "abc"}]

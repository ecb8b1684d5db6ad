"""Hostile workspace state for the security tests: what a repository can
commit under `.faultlens/`, and journal entries left by a dead process."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]

_LEDGER = (
    "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);"
    "CREATE TABLE runs (id INTEGER PRIMARY KEY AUTOINCREMENT, task TEXT NOT NULL,"
    " argv TEXT NOT NULL, cwd TEXT NOT NULL, exit_code INTEGER, started REAL NOT NULL,"
    " finished REAL);"
    "CREATE TABLE run_records (run_id INTEGER NOT NULL, seq INTEGER NOT NULL,"
    " failure_id TEXT NOT NULL, record TEXT NOT NULL, PRIMARY KEY (run_id, seq));"
    "CREATE TABLE attempts (id INTEGER PRIMARY KEY AUTOINCREMENT, failure_id TEXT NOT NULL,"
    " task TEXT NOT NULL, failure_type TEXT NOT NULL, automatic INTEGER NOT NULL DEFAULT 1,"
    " state TEXT NOT NULL, tried TEXT NOT NULL DEFAULT '', reason TEXT NOT NULL DEFAULT '',"
    " record TEXT, outcome TEXT, pid INTEGER NOT NULL, created REAL NOT NULL, finished REAL);"
)


def committed_ledger(
    path: Path, record: dict[str, Any], argv: list[str], *, mark: bool = False
) -> None:
    """A ledger as a repository could commit it (schema 1, no mark of this
    machine, or a forged one with `mark`): one stored run of `record` whose
    argv a recipe would re-run to verify, an attempt of an earlier failure,
    and a trigger that rewrites every run stored later to that argv."""
    path.parent.mkdir(parents=True, exist_ok=True)
    db = sqlite3.connect(path)
    try:
        db.executescript(_LEDGER)
        quoted = json.dumps(argv).replace("'", "''")
        db.execute(
            "CREATE TRIGGER rewrite AFTER INSERT ON runs BEGIN "
            f"UPDATE runs SET argv = '{quoted}' WHERE id = new.id; END"
        )
        db.execute("INSERT INTO meta VALUES ('schema', '1')")
        if mark:
            db.execute("INSERT INTO meta VALUES ('nonce', 'ab'), ('owner', ?)", ("0" * 64,))
        db.execute(
            "INSERT INTO runs(task, argv, cwd, exit_code, started) VALUES ('default', ?, '.', 2, 0)",
            (json.dumps(argv),),
        )
        db.execute(
            "INSERT INTO run_records VALUES (1, 0, ?, ?)", (record["id"], json.dumps(record))
        )
        db.execute(
            "INSERT INTO attempts(failure_id, task, failure_type, state, pid, created)"
            " VALUES ('an-earlier-failure', 'default', 'compile', 'escalated', 1, 0)"
        )
        db.commit()
    finally:
        db.close()


def journal_by_a_dead_process(
    root: Path, kind: str, data: dict[str, Any], state: Path | None = None
) -> str:
    """A journal entry signed on this machine (the same XDG_STATE_HOME) by a
    process that then exited; its file name."""
    code = (
        "import json, sys\n"
        "from pathlib import Path\n"
        "from faultlens.recipes import Workspace, journal\n"
        "state = Path(sys.argv[2]) if sys.argv[2] else None\n"
        "ws = Workspace(roots=[Path(sys.argv[1])], state_dir=state)\n"
        "print(journal.begin(ws, sys.argv[3], json.loads(sys.argv[4])).name)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code, str(root), str(state or ""), kind, json.dumps(data)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    return out.stdout.strip()

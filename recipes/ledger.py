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

Schema changes are numbered migration steps (`MIGRATIONS`), each applied once
in one transaction and recorded in `meta.schema`; a ledger written by a newer
faultlens is used as it is, never downgraded.

`Ledger` is the one class; its parts live apart: the schema and migrations
(ledger_schema.py), the connections (ledger_db.py), the attempt queries
(ledger_attempts.py), the task, run and status queries (ledger_runs.py) and
the row types (ledger_rows.py).
"""

from __future__ import annotations

from pathlib import Path

from . import ledgerguard, statedir
from .ledger_attempts import AttemptQueries
from .ledger_db import BUSY_TIMEOUT_S, use_wal
from .ledger_rows import MIN_ID_PREFIX, AmbiguousId, AttemptRow, RunRow, TypeAttemptRow, task_key
from .ledger_runs import RunQueries
from .ledger_schema import SCHEMA, SCHEMA_VERSION, migrate
from .model import Workspace

__all__ = [
    "BUSY_TIMEOUT_S",
    "MIN_ID_PREFIX",
    "SCHEMA_VERSION",
    "AmbiguousId",
    "AttemptRow",
    "Ledger",
    "RunRow",
    "TypeAttemptRow",
    "task_key",
]

# Ledger files whose schema this process has already created.
_READY: set[Path] = set()


class Ledger(AttemptQueries, RunQueries):
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
            use_wal(db)
        with self._tx() as db:
            for stmt in SCHEMA.split(";"):
                if stmt.strip():
                    db.execute(stmt)
            migrate(db)
            ledgerguard.sign_new(db, self.path)
        _READY.add(path)
        ledgerguard.mark_ready(path)

    @classmethod
    def open(cls, ws: Workspace) -> Ledger:
        return cls(ws.state / "ledger.sqlite3")

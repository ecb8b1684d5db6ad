"""The ledger's SQLite connections: WAL mode, a short-lived connection per
write transaction (BEGIN IMMEDIATE, busy timeout), a kept read connection
per thread, and the task-row writes both query families make inside their
transactions.  Every write goes through the sink (recipes/ledger_sink.py)."""

from __future__ import annotations

import os
import sqlite3
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from . import ledgerguard
from .ledger_sink import ScrubbingConnection

BUSY_TIMEOUT_S = 30.0


def use_wal(db: sqlite3.Connection) -> None:
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


# Per-thread read connections (see LedgerConnections._read).
_READERS = threading.local()


class LedgerConnections:
    """How the ledger's queries reach its file (`Ledger` is made of these)."""

    path: Path

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

    # -- task rows, inside a write transaction -------------------------------------
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
        LedgerConnections._touch_task(db, task)
        if only_if is None:
            db.execute("UPDATE tasks SET status=? WHERE task=?", (status, task))
        else:
            db.execute(
                "UPDATE tasks SET status=? WHERE task=? AND status=?", (status, task, only_if)
            )

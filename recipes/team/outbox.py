"""The local queue of what the team database has not received yet.

Every run writes its facts here first (SQLite in the state dir,
`history-outbox.sqlite3`, one short transaction), then tries to send; what
could not be sent waits for the next run of this workspace or `faultlens
history sync`.  The database's keys make a fact sent twice count once, so a
send interrupted after the server committed loses and doubles nothing.
"""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from .facts import RunFact

FILE = "history-outbox.sqlite3"
MAX_QUEUED = 10_000  # runs kept while the server is away; the oldest go first past it


class Outbox:
    def __init__(self, state_dir: Path) -> None:
        self.path = state_dir / FILE

    @contextmanager
    def _db(self) -> Iterator[sqlite3.Connection]:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        db = sqlite3.connect(self.path, timeout=30.0, isolation_level=None)
        try:
            db.execute("PRAGMA journal_mode=WAL")
            db.execute(
                "CREATE TABLE IF NOT EXISTS outbox ("
                " key TEXT PRIMARY KEY, queued REAL NOT NULL, fact TEXT NOT NULL)"
            )
            yield db
        finally:
            db.close()

    def put(self, fact: RunFact) -> None:
        with self._db() as db:
            db.execute("BEGIN IMMEDIATE")
            db.execute(
                "INSERT OR IGNORE INTO outbox(key, queued, fact) VALUES (?, ?, ?)",
                (fact.key, time.time(), json.dumps(fact.to_json())),
            )
            db.execute(
                "DELETE FROM outbox WHERE key IN (SELECT key FROM outbox ORDER BY queued DESC"
                " LIMIT -1 OFFSET ?)",
                (MAX_QUEUED,),
            )
            db.execute("COMMIT")

    def oldest(self, limit: int = 200) -> list[RunFact]:
        if not self.path.exists():
            return []
        out = []
        with self._db() as db:
            rows = db.execute("SELECT fact FROM outbox ORDER BY queued LIMIT ?", (limit,))
            for (text,) in rows.fetchall():
                try:
                    out.append(RunFact.from_json(json.loads(text)))
                except (ValueError, TypeError, KeyError):
                    continue  # a row this version cannot read stays for a newer one
        return out

    def done(self, keys: list[str]) -> None:
        if not keys:
            return
        with self._db() as db:
            db.execute("BEGIN IMMEDIATE")
            db.executemany("DELETE FROM outbox WHERE key=?", [(k,) for k in keys])
            db.execute("COMMIT")

    def count(self) -> int:
        if not self.path.exists():
            return 0
        with self._db() as db:
            return int(db.execute("SELECT count(*) FROM outbox").fetchone()[0])

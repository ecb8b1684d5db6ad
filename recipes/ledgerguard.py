"""The ledger's file as untrusted state: what `Ledger` checks before using it.

* `ledger.sqlite3` and its `-wal`, `-shm`, `-journal` companions must be
  regular files or absent: SQLite follows symlinks, so a checkout's
  `ledger.sqlite3-wal -> ~/.bashrc` would otherwise be written.
* A ledger is trusted only when this machine made it: a new ledger gets a
  random nonce and its HMAC with the machine key in its `meta` table.  A
  ledger could otherwise name any command as "the command that failed" for a
  recipe to re-run (a stored run's argv, a record's hint), or carry a trigger
  that rewrites what is stored.  So a ledger marked by another machine, or
  not a database at all, is moved aside (`ledger.sqlite3.untrusted-<time>`)
  and a new one started; a ledger with no mark (made before the marks
  existed, or committed to a repository) keeps its attempt history (the
  one-attempt rule) but loses every stored run and record, trigger and view
  before it is marked as this machine's.  Both are reported.
* SQLite's and the file system's errors (read-only, full disk, not a
  database) become StateUnavailable with one line; the callers decide
  whether to go on without a ledger (the CLI does) or to refuse (a recipe's
  attempt needs its claim).
"""

from __future__ import annotations

import contextlib
import os
import secrets
import sqlite3
import threading
import time
from collections.abc import Iterator
from pathlib import Path

from . import machinekey, statefs
from .model import StateUnavailable

PURPOSE = "faultlens-ledger-v1"
COMPANIONS = ("", "-wal", "-shm", "-journal")

_ready: dict[Path, int] = {}  # ledger path -> inode checked by this process
_lock = threading.Lock()


def _short(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return text[0] if text else type(exc).__name__


@contextlib.contextmanager
def state_errors(path: Path) -> Iterator[None]:
    """Turn SQLite's and the file system's errors into StateUnavailable."""
    try:
        yield
    except sqlite3.IntegrityError:
        raise
    except (sqlite3.OperationalError, sqlite3.DatabaseError) as exc:
        raise StateUnavailable(f"the ledger {path.name}: {_short(exc)}") from exc
    except OSError as exc:
        if isinstance(exc, StateUnavailable):  # pragma: no cover - not an OSError
            raise
        raise StateUnavailable(f"the ledger {path.name}: {statefs.describe(exc)}") from exc


def check_files(path: Path) -> None:
    """Refuse a ledger (or a companion file) that is not a regular file."""
    for suffix in COMPANIONS:
        what = statefs.regular_or_absent(path.with_name(path.name + suffix))
        if what is not None:
            raise StateUnavailable(
                f"{path.name}{suffix} in the state dir is {what}: the ledger is not used"
            )


def ready(path: Path) -> bool:
    """Whether this process already checked the ledger file now at `path`."""
    try:
        inode = os.stat(path).st_ino
    except OSError:
        return False
    with _lock:
        return _ready.get(path) == inode


def mark_ready(path: Path) -> None:
    with contextlib.suppress(OSError), _lock:
        _ready[path] = os.stat(path).st_ino


def _inspect(path: Path) -> tuple[str | None, str | None, bool]:
    """(nonce, owner mark, whether it holds any attempt, task or run)."""
    db = sqlite3.connect(path, timeout=30.0, isolation_level=None)
    try:
        db.execute("PRAGMA trusted_schema=OFF")
        tables = {
            str(r[0])
            for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'").fetchall()
        }
        got: dict[str, object] = {}
        if "meta" in tables:
            got = dict(
                db.execute("SELECT key, value FROM meta WHERE key IN ('nonce', 'owner')").fetchall()
            )
        rows = any(
            db.execute(f"SELECT 1 FROM {t} LIMIT 1").fetchone() is not None  # noqa: S608
            for t in ("attempts", "tasks", "runs", "run_records", "applied_edits")
            if t in tables
        )
    finally:
        db.close()
    nonce, owner = got.get("nonce"), got.get("owner")
    return (
        nonce if isinstance(nonce, str) else None,
        owner if isinstance(owner, str) else None,
        rows,
    )


def provenance(path: Path) -> str:
    """ "ours" (this machine's mark), "empty" (no mark and nothing in it: being
    made right now, or never used), "unmarked" (no mark, content) or
    "foreign" (another machine's mark, or not a database)."""
    try:
        nonce, owner, rows = _inspect(path)
    except sqlite3.DatabaseError:
        return "foreign"
    if nonce is not None:
        ok = machinekey.verify(PURPOSE, nonce.encode("utf-8"), owner)
        return "ours" if ok else "foreign"
    return "unmarked" if rows else "empty"


def _neutralise(path: Path) -> None:
    """Keep an unmarked ledger's attempts and tasks, drop everything that could
    name a command or rewrite what is stored, and mark it as ours."""
    db = sqlite3.connect(path, timeout=30.0, isolation_level=None)
    try:
        db.execute("PRAGMA trusted_schema=OFF")
        db.execute("BEGIN IMMEDIATE")
        for kind, name in db.execute(
            "SELECT type, name FROM sqlite_master WHERE type IN ('trigger', 'view')"
        ).fetchall():
            db.execute(f'DROP {kind.upper()} IF EXISTS "{str(name).replace(chr(34), "")}"')
        tables = {
            str(r[0]) for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")
        }
        # applied_edits holds file contents a revert would write back: a
        # checkout's rows must never reach a file (recipes/revert.py).
        for table in ("run_records", "runs", "applied_edits"):
            if table in tables:
                db.execute(f"DELETE FROM {table}")  # noqa: S608 - a fixed name
        if "attempts" in tables:
            db.execute("UPDATE attempts SET record = NULL, outcome = NULL")
        if "meta" in tables:
            sign_new(db)
        db.execute("COMMIT")
    finally:
        db.close()


def set_aside(path: Path) -> str:
    """Move a ledger that is not ours (and its companions) aside; the new name."""
    stamp = time.strftime("%Y%m%d-%H%M%S")
    new = f"{path.name}.untrusted-{stamp}-{secrets.token_hex(2)}"
    for suffix in COMPANIONS:
        with contextlib.suppress(FileNotFoundError):
            os.replace(path.with_name(path.name + suffix), path.with_name(new + suffix))
    return new


def adopt(path: Path) -> None:
    """Before a ledger is used: set aside another machine's, neutralise an
    unmarked one (and say so once)."""
    if not path.exists():
        return
    kind = provenance(path)
    if kind == "foreign":
        new = set_aside(path)
        statefs.report(
            f"the ledger {path.name} was not made by faultlens on this machine (another"
            f" machine's, or not a ledger): moved aside to {new}; a new ledger is started",
            once=f"ledger-aside:{path}",
        )
    elif kind == "unmarked":
        _neutralise(path)
        statefs.report(
            f"the ledger {path.name} had no mark of this machine (an older faultlens, or"
            " committed to the repository): its attempt history is kept, its stored runs and"
            " records are dropped, so no recipe re-runs a command it did not see run here",
            once=f"ledger-neutral:{path}",
        )


def sign_new(db: sqlite3.Connection) -> None:
    """Put this machine's mark into a ledger that has none (inside the
    caller's schema transaction)."""
    row = db.execute("SELECT value FROM meta WHERE key='nonce'").fetchone()
    if row is not None:
        return
    nonce = secrets.token_hex(16)
    db.execute("INSERT INTO meta(key, value) VALUES ('nonce', ?)", (nonce,))
    db.execute(
        "INSERT OR REPLACE INTO meta(key, value) VALUES ('owner', ?)",
        (machinekey.sign(PURPOSE, nonce.encode("utf-8")),),
    )

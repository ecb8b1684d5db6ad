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
  and a new one started.  The mark is bound to the state dir, as journals
  are (the HMAC covers the nonce and the state dir's path): a ledger this
  machine made for another workspace and copied here is moved aside too.  A
  mark of this machine made before the binding (the nonce alone) is bound to
  where it is found, once.  So a ledger marked by another machine, made for
  another state dir, or
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
from .ledger_sink import Verbatim
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
    """(nonce, owner mark, whether it holds any attempt, task or run).
    sqlite3.DatabaseError when it is no database (or a truncated one)."""
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


def _bound(nonce: str, path: Path) -> bytes:
    """What the mark signs: the nonce and the state dir the ledger belongs to."""
    return f"{nonce}\0{os.path.realpath(path.parent)}".encode("utf-8", "surrogateescape")


def provenance(path: Path) -> str:
    """ "ours" (this machine's mark, for this state dir), "unbound" (this
    machine's mark from before marks named the state dir), "elsewhere" (this
    machine's mark, for another state dir: a ledger copied here), "empty" (no
    mark and nothing in it: being made right now, or never used), "unmarked"
    (no mark, content), "foreign" (another machine's mark) or "broken" (not a
    database, or a truncated one)."""
    try:
        nonce, owner, rows = _inspect(path)
    except sqlite3.DatabaseError:
        return "broken"
    if nonce is not None:
        if machinekey.verify(PURPOSE, _bound(nonce, path), owner):
            return "ours"
        if machinekey.verify(PURPOSE, nonce.encode("utf-8"), owner):
            return "unbound"
        return "elsewhere" if _made_here_for(path, nonce, owner) else "foreign"
    return "unmarked" if rows else "empty"


def _made_here_for(path: Path, nonce: str, owner: str | None) -> bool:
    """The mark is this machine's for the state dir the ledger names (`meta.bound`)."""
    try:
        db = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=30.0)
        try:
            row = db.execute("SELECT value FROM meta WHERE key='bound'").fetchone()
        finally:
            db.close()
    except sqlite3.DatabaseError:
        return False
    if row is None or not isinstance(row[0], str):
        return False
    signed = f"{nonce}\0{row[0]}".encode("utf-8", "surrogateescape")
    return machinekey.verify(PURPOSE, signed, owner)


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
            sign_new(db, path)
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
    if kind in _ASIDE:
        new = set_aside(path)
        statefs.report(
            f"the ledger {path.name} {_ASIDE[kind]}: moved aside to {new}; a new ledger is started",
            once=f"ledger-aside:{path}",
        )
    elif kind == "unbound":
        _bind(path)
    elif kind == "unmarked":
        _neutralise(path)
        statefs.report(
            f"the ledger {path.name} had no mark of this machine (an older faultlens, or"
            " committed to the repository): its attempt history is kept, its stored runs and"
            " records are dropped, so no recipe re-runs a command it did not see run here",
            once=f"ledger-neutral:{path}",
        )


_ASIDE = {
    "foreign": "was not made by faultlens on this machine",
    "elsewhere": "was made on this machine for another state dir (copied here)",
    "broken": "is not a readable SQLite database (truncated or damaged)",
}


def sign_new(db: sqlite3.Connection, path: Path) -> None:
    """Put this machine's mark, bound to the state dir of `path`, into a
    ledger that has none (inside the caller's schema transaction)."""
    row = db.execute("SELECT value FROM meta WHERE key='nonce'").fetchone()
    if row is not None:
        return
    _mark(db, secrets.token_hex(16), path)


def _mark(db: sqlite3.Connection, nonce: str, path: Path) -> None:
    db.execute("INSERT OR REPLACE INTO meta(key, value) VALUES ('nonce', ?)", (nonce,))
    db.execute(
        "INSERT OR REPLACE INTO meta(key, value) VALUES ('bound', ?)",
        (Verbatim(os.path.realpath(path.parent)),),  # signed: stored byte for byte
    )
    db.execute(
        "INSERT OR REPLACE INTO meta(key, value) VALUES ('owner', ?)",
        (Verbatim(machinekey.sign(PURPOSE, _bound(nonce, path))),),
    )


def _bind(path: Path) -> None:
    """Bind this machine's older mark (the nonce alone) to the ledger's state dir."""
    db = sqlite3.connect(path, timeout=30.0, isolation_level=None)
    try:
        db.execute("PRAGMA trusted_schema=OFF")
        db.execute("BEGIN IMMEDIATE")
        row = db.execute("SELECT value FROM meta WHERE key='nonce'").fetchone()
        if row is not None and isinstance(row[0], str):
            _mark(db, row[0], path)
        db.execute("COMMIT")
    finally:
        db.close()

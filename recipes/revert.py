"""Reverting a fix: when an applied fix fails verification, the escalation
offers "revert the fix" (`faultlens revert ID`, the server's code action).

What a fix wrote is kept when it is applied: the edit journal's targets
(recipes/edits.py `Written`: each file's original bytes and the hash of what
the apply wrote) go into the ledger's `applied_edits` (schema 3) instead of
being forgotten with the journal.  A revert restores exactly those files,
each only while it still holds what the fix wrote (its hash): a file edited
after the fix is never touched, and the revert says which were kept.  The
restore is one journalled write of all the files (`edits.write_files`: a
kill in the middle is rolled back at the next start); a file the fix created
is removed.  The revert is recorded in the ledger (the row's `reverted` and
`revert`) and as a `recovery.reverted` event.

The original bytes come from the ledger, which is trusted only when this
machine made it (recipes/ledgerguard.py); every path is checked against the
workspace again before anything is written (`edits.target_path`).
"""

from __future__ import annotations

import base64
import dataclasses
import hashlib
import json
import logging
import os
import stat
import time
from collections.abc import Collection, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .model import Option

if TYPE_CHECKING:
    from faultlens.classifier.record import FailureRecord

    from .edits import Written
    from .ledger import Ledger
    from .model import Outcome, Workspace

log = logging.getLogger(__name__)

MAX_LISTED = 200  # applied fixes looked at when one is searched by failure id


@dataclass(slots=True)
class Applied:
    """One applied fix, as the ledger keeps it."""

    id: int
    task: str
    failure_ids: list[str]
    title: str
    targets: list[dict[str, Any]]
    created: float
    reverted: float | None = None
    revert: dict[str, Any] = field(default_factory=dict)
    attempt_ids: list[int] = field(default_factory=list)

    @property
    def files(self) -> list[str]:
        return [str(t["path"]) for t in self.targets]


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _target(w: Written) -> dict[str, Any]:
    return {
        "path": w.path,
        "original": None if w.original is None else base64.b64encode(w.original).decode(),
        "old": None if w.original is None else _sha(w.original),
        "new": w.new_sha,
        "mode": w.mode,
    }


# -- remembering ----------------------------------------------------------------------------
def remember(
    ledger: Ledger,
    written: Sequence[Written],
    *,
    task: str | None,
    failure_ids: Sequence[str],
    attempt_ids: Sequence[int] = (),
    title: str = "",
    run_id: int | None = None,
) -> int | None:
    """Keep what an apply wrote, for a later revert; the row's id (None when
    the ledger cannot take it: the fix stands, it just cannot be reverted)."""
    from .ledger import task_key
    from .model import StateUnavailable

    if not written:
        return None
    try:
        return _insert(ledger, written, task_key(task), failure_ids, attempt_ids, title, run_id)
    except (StateUnavailable, OSError) as exc:
        log.warning("the applied fix is not kept for a revert: %s", exc)
        return None


def _insert(
    ledger: Ledger,
    written: Sequence[Written],
    task: str,
    failure_ids: Sequence[str],
    attempt_ids: Sequence[int],
    title: str,
    run_id: int | None,
) -> int:
    with ledger._tx() as db:
        cur = db.execute(
            "INSERT INTO applied_edits(task, run_id, failure_ids, attempt_ids, title, targets,"
            " created) VALUES (?, ?, ?, ?, ?, ?, ?)",
            (
                task,
                run_id,
                json.dumps(list(dict.fromkeys(failure_ids))),
                json.dumps(list(attempt_ids)),
                title,
                json.dumps([_target(w) for w in written]),
                time.time(),
            ),
        )
        return int(cur.lastrowid or 0)


def written_since(ws: Workspace, before: dict[str, bytes | None]) -> list[Written]:
    """What an apply made elsewhere (an editor's workspace edit) wrote: each
    file's bytes before (`before`, workspace-relative paths) and its hash now."""
    from .edits import Written, target_path

    out = []
    for rel, original in before.items():
        try:
            path = target_path(ws, rel)
            st = os.lstat(path)
            if not stat.S_ISREG(st.st_mode):
                continue
            now = _read(path)
        except (OSError, ValueError):
            continue
        if original is not None and now == original:
            continue  # not changed: nothing to revert there
        out.append(Written(rel, original, _sha(now), st.st_mode & 0o777))
    return out


def snapshot(ws: Workspace, rels: Sequence[str]) -> dict[str, bytes | None]:
    """The bytes of files before an edit (None: the file does not exist)."""
    from .edits import target_path

    out: dict[str, bytes | None] = {}
    for rel in dict.fromkeys(rels):
        try:
            out[rel] = _read(target_path(ws, rel))
        except FileNotFoundError:
            out[rel] = None
        except (OSError, ValueError):
            continue
    return out


def _read(path: Path) -> bytes:
    """A workspace file's bytes (regular files only, bounded, never blocking)."""
    from faultlens.classifier.files import read_bytes

    from .edits import MAX_FILE

    return read_bytes(path, MAX_FILE)


# -- finding --------------------------------------------------------------------------------
def _row(row: Sequence[Any]) -> Applied:
    return Applied(
        id=int(row[0]),
        task=str(row[1]),
        failure_ids=[str(x) for x in json.loads(row[3])],
        title=str(row[5]),
        targets=[t for t in json.loads(row[6]) if isinstance(t, dict)],
        created=float(row[7]),
        reverted=None if row[8] is None else float(row[8]),
        revert=json.loads(row[9]) if row[9] else {},
        attempt_ids=[int(x) for x in json.loads(row[4] or "[]") if isinstance(x, int)],
    )


def find(ledger: Ledger, failure_id: str) -> Applied | None:
    """The newest applied fix for the failure whose id is or starts with
    `failure_id` (reverted or not)."""
    if not failure_id:
        return None
    with ledger._read() as db:
        rows = db.execute(
            "SELECT id, task, run_id, failure_ids, attempt_ids, title, targets, created,"
            " reverted, revert FROM applied_edits ORDER BY id DESC LIMIT ?",
            (MAX_LISTED,),
        ).fetchall()
    for row in rows:
        applied = _row(row)
        if any(fid == failure_id or fid.startswith(failure_id) for fid in applied.failure_ids):
            return applied
    return None


def of_attempt(ledger: Ledger, failure_id: str, attempt_id: int) -> Applied | None:
    """The fix applied by the attempt `attempt_id` for the failure, not reverted
    (None: that attempt wrote nothing, or its fix was undone already)."""
    with ledger._read() as db:
        rows = db.execute(
            "SELECT id, task, run_id, failure_ids, attempt_ids, title, targets, created,"
            " reverted, revert FROM applied_edits ORDER BY id DESC LIMIT ?",
            (MAX_LISTED,),
        ).fetchall()
    for row in rows:
        applied = _row(row)
        if failure_id in applied.failure_ids and attempt_id in applied.attempt_ids:
            return applied if applied.reverted is None else None
    return None


def revertable(ledger: Ledger, failure_id: str) -> Applied | None:
    """The applied fix of this failure that can still be reverted."""
    found = find(ledger, failure_id)
    return found if found is not None and found.reverted is None else None


def option(applied: Applied, failure_id: str) -> Option:
    files = ", ".join(applied.files[:3]) + ("…" if len(applied.files) > 3 else "")
    return Option(
        "revert",
        f"[revert {failure_id}]",
        f"Revert the fix ({files}): `faultlens revert {failure_id}` restores the files it "
        "changed, those unchanged since",
    )


def options_for(ledger: Ledger, outcomes: Sequence[Outcome]) -> list[Option]:
    """The "revert the fix" option of each escalated failure with an applied fix."""
    out: list[Option] = []
    seen: set[int] = set()
    for o in outcomes:
        if o.result != "escalated":
            continue
        try:
            applied = revertable(ledger, o.record.id)
        except Exception as exc:  # an option is a courtesy: never fail the box for it
            log.debug("no revert option for %s: %s", o.record.id, exc)
            continue
        if applied is not None and applied.id not in seen:
            seen.add(applied.id)
            out.append(option(applied, o.record.id))
    return out


# -- reverting ------------------------------------------------------------------------------
@dataclass(slots=True)
class Reverted:
    """What a revert did."""

    applied: Applied
    restored: list[str] = field(default_factory=list)  # back to what they held before the fix
    removed: list[str] = field(default_factory=list)  # files the fix had made
    kept: list[str] = field(default_factory=list)  # edited since the fix: not touched
    unchanged: list[str] = field(default_factory=list)  # already hold what they held before
    refused: list[str] = field(default_factory=list)  # outside the workspace now (a link)

    def summary(self, *, planned: bool = False) -> str:
        parts = []
        if self.restored:
            parts.append(f"{'restore' if planned else 'restored'} {', '.join(self.restored)}")
        if self.removed:
            verb = "remove" if planned else "removed"
            parts.append(f"{verb} {', '.join(self.removed)} (made by the fix)")
        if self.kept:
            parts.append(f"kept {', '.join(self.kept)} (changed since the fix: not touched)")
        if self.unchanged:
            parts.append(f"{', '.join(self.unchanged)} already as before the fix")
        if self.refused:
            parts.append(f"refused {', '.join(self.refused)} (not a workspace file now)")
        return "; ".join(parts) or "nothing to revert"

    def to_json(self) -> dict[str, Any]:
        return {
            "applied": self.applied.id,
            "title": self.applied.title,
            "failure_ids": self.applied.failure_ids,
            "restored": self.restored,
            "removed": self.removed,
            "kept": self.kept,
            "unchanged": self.unchanged,
            "refused": self.refused,
        }


class RevertError(RuntimeError):
    """The revert cannot be made (the message says why, one line)."""


def plan_revert(ws: Workspace, applied: Applied) -> tuple[Reverted, list[tuple[str, bytes]]]:
    """What a revert would do (read only): each file's fate, and the contents
    to write back."""
    from .edits import target_path
    from .model import UnsafeEdit

    out = Reverted(applied)
    writes: list[tuple[str, bytes]] = []
    for t in applied.targets:
        rel = str(t.get("path"))
        try:
            path = target_path(ws, rel)
        except UnsafeEdit:
            out.refused.append(rel)
            continue
        raw = t.get("original")
        original = base64.b64decode(raw) if isinstance(raw, str) else None
        try:
            st = os.lstat(path)
            now = _read(path) if stat.S_ISREG(st.st_mode) else None
        except FileNotFoundError:
            now = None
            if original is None:
                out.unchanged.append(rel)
            else:
                out.kept.append(rel)  # deleted since the fix
            continue
        except OSError:
            out.kept.append(rel)
            continue
        if now is None:
            out.kept.append(rel)
        elif original is not None and now == original:
            out.unchanged.append(rel)
        elif _sha(now) != t.get("new"):
            out.kept.append(rel)
        elif original is None:
            out.removed.append(rel)
        else:
            writes.append((rel, original))
            out.restored.append(rel)
    return out, writes


def revert(
    ws: Workspace, applied: Applied, *, who: str = "cli", only: Collection[str] | None = None
) -> Reverted:
    """Restore the files a fix changed that still hold what it wrote; record
    it (ledger + `recovery.reverted` event).  RevertError when it was reverted
    already or the files cannot be written.

    `only` (workspace-relative paths) restores just those of its files: the
    rest of the fix stays, and stays revertable."""
    from .batch import ApplyLock
    from .edits import target_path, write_files
    from .events import EventLog
    from .ledger import Ledger
    from .model import ApplyError, UnsafeEdit

    if applied.reverted is not None:
        raise RevertError(
            f"this fix was already reverted ({time.strftime('%d %b %H:%M', time.localtime(applied.reverted))})"
        )
    kept_targets: list[dict[str, Any]] = []
    if only is not None:
        kept_targets = [t for t in applied.targets if t.get("path") not in only]
        applied = dataclasses.replace(
            applied, targets=[t for t in applied.targets if t.get("path") in only]
        )
    with ApplyLock(ws):  # no apply of another process lands between the check and the write
        done, writes = plan_revert(ws, applied)
        try:
            write_files(ws, writes)
        except (ApplyError, UnsafeEdit) as exc:
            raise RevertError(f"the fix could not be reverted: {exc}") from exc
        for rel in list(done.removed):
            try:
                path = target_path(ws, rel)
                if _sha(_read(path)) == _wrote(applied, rel):
                    path.unlink()
                    continue
            except (OSError, UnsafeEdit):
                pass
            done.removed.remove(rel)
            done.kept.append(rel)
    ledger = Ledger.open(ws)
    with ledger._tx() as db:
        if kept_targets:  # part of the fix stays: only its other files remain revertable
            db.execute(
                "UPDATE applied_edits SET targets=? WHERE id=?",
                (json.dumps(kept_targets), applied.id),
            )
        else:
            db.execute(
                "UPDATE applied_edits SET reverted=?, revert=? WHERE id=?",
                (time.time(), json.dumps({**done.to_json(), "by": who}), applied.id),
            )
    record = _record_of(ledger, applied)
    if record is not None:
        EventLog(ws).emit(
            "recovery.reverted",
            record,
            tried=f"revert the fix ({applied.title})" if applied.title else "revert the fix",
            reason=done.summary(),
            restored=done.restored + done.removed,
            kept=done.kept,
        )
    return done


def _wrote(applied: Applied, rel: str) -> str | None:
    for t in applied.targets:
        if t.get("path") == rel:
            value = t.get("new")
            return value if isinstance(value, str) else None
    return None


def _record_of(ledger: Ledger, applied: Applied) -> FailureRecord | None:
    from faultlens.classifier.record import FailureRecord

    for fid in applied.failure_ids:
        for row in ledger.history(fid, limit=5):
            if row.record:
                try:
                    return FailureRecord.from_json(row.record)
                except ValueError:
                    continue
    return None

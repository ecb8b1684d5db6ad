"""Journals of operations in flight: what to undo or clean up if faultlens is
killed in the middle of something.

Before an operation that a kill -9 would leave half done (a multi-file edit,
a `git rebase`, a temporary worktree) its owner writes a journal entry under
`<state>/journal/`; it updates the entry as the operation moves on and
removes it when the operation is over, whatever the result.  On the next
start `recipes.crash_restore` finds the entries whose owner is dead and hands each
one to the handler of its kind, which puts things back.

An entry is a file `<kind>-<pid>-<random>.json` holding the document as
canonical JSON text and its HMAC with the machine key (recipes/machinekey.py):

    {"doc": "{\\"created_ns\\":...,\\"data\\":{...},\\"kind\\":\\"edits\\",...}",
     "mac": "<hex>"}

The document names the state dir it was written for, its owner (pid, the
process's start time and the boot id, so a reused pid is not taken for the
owner) and when it was written.  `scan` returns an entry only when the HMAC
verifies and the state dir matches: a journal that came with a checkout, or
was copied from another workspace, is reported and never acted on.  Even a
verified entry's targets are checked again by its handler before anything is
touched.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import secrets
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from faultlens.classifier.lazyre import lazy_compile

from . import machinekey, statefs
from .model import Workspace

DIR = "journal"
PURPOSE = "faultlens-journal-v1"
MAX_ENTRY = 96 * 1024 * 1024  # bytes of one journal file
MAX_ENTRIES = 1000  # journal files looked at per start (a checkout could hold millions)
KIND = lazy_compile(r"[a-z][a-z0-9_.]{0,39}", re.ASCII)
NAME = lazy_compile(r"([a-z][a-z0-9_.]{0,39})-(\d{1,10})-([0-9a-f]{12})\.json", re.ASCII)


class JournalTooLarge(ValueError):
    """An operation too large to journal (it must not start)."""


@dataclass(slots=True)
class Recovered:
    """What a handler did with an interrupted operation.

    `summary` is one line for the user; `done` says the entry can go (when
    False it is left for the next start); `kept` names what was left alone
    because someone changed it since (a user's later edit); `fields` go into
    the `state.recovered` event; `on_behalf_of` ties the notice to the
    ledger attempt of that process."""

    summary: str
    done: bool = True
    kept: list[str] = field(default_factory=list)
    fields: dict[str, Any] = field(default_factory=dict)
    # The process the operation ran for (the one that claimed the ledger
    # attempt), when it is not the entry's owner.
    on_behalf_of: int | None = None


# -- who wrote it, and is it still running -------------------------------------------
def boot_id() -> str | None:
    try:
        with open("/proc/sys/kernel/random/boot_id", encoding="ascii") as f:
            return f.read().strip() or None
    except OSError:
        return None


def _proc_stat(pid: int) -> list[bytes] | None:
    """The fields of /proc/<pid>/stat after the command name, or None."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            raw = f.read()
    except OSError:
        return None
    try:
        return raw[raw.rindex(b")") + 2 :].split()
    except ValueError:
        return None


def process_start(pid: int) -> int | None:
    """When process `pid` started (clock ticks since boot, from /proc), or None."""
    fields = _proc_stat(pid)
    try:
        return int(fields[19]) if fields else None
    except (ValueError, IndexError):
        return None


def pid_exists(pid: int) -> bool:
    """Whether a process `pid` runs (a zombie, killed and not yet reaped, does not)."""
    if pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        pass
    fields = _proc_stat(pid)
    return not (fields and fields[0] in (b"Z", b"X"))


@dataclass(frozen=True, slots=True)
class Owner:
    """The process that owns an entry."""

    pid: int
    start: int | None
    boot: str | None

    @classmethod
    def current(cls) -> Owner:
        pid = os.getpid()
        return cls(pid, process_start(pid), boot_id())

    def alive(self) -> bool:
        """Whether the owner is still running (same boot, same pid, same start)."""
        if self.boot is not None and self.boot != boot_id():
            return False
        if not pid_exists(self.pid):
            return False
        if self.start is not None:
            now = process_start(self.pid)
            if now is not None and now != self.start:
                return False  # the pid was reused
        return True

    def to_json(self) -> dict[str, Any]:
        return {"pid": self.pid, "start": self.start, "boot": self.boot}

    @classmethod
    def from_json(cls, raw: Any) -> Owner:
        if not isinstance(raw, dict):
            raise ValueError("owner")
        pid, start, boot = raw.get("pid"), raw.get("start"), raw.get("boot")
        if type(pid) is not int or not (start is None or type(start) is int):
            raise ValueError("owner")
        if not (boot is None or isinstance(boot, str)):
            raise ValueError("owner")
        return cls(pid, start, boot)


# -- entries ---------------------------------------------------------------------------
@dataclass(slots=True)
class JournalEntry:
    """One operation in flight."""

    kind: str
    name: str  # the file name under journal/
    owner: Owner
    created_ns: int
    updated_ns: int
    data: dict[str, Any] = field(default_factory=dict)

    @property
    def age_s(self) -> float:
        """Seconds since the entry was last written (negative: from the future)."""
        return (time.time_ns() - self.updated_ns) / 1e9


@dataclass(slots=True)
class Found:
    """A file in the journal folder: a verified entry, or why it is not one."""

    name: str
    entry: JournalEntry | None
    problem: str | None = None


def _canonical(obj: Any) -> str:
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=True)


def _document(ws: Workspace, entry: JournalEntry) -> str:
    return _canonical(
        {
            "v": 1,
            "kind": entry.kind,
            "state": str(ws.state),
            "owner": entry.owner.to_json(),
            "created_ns": entry.created_ns,
            "updated_ns": entry.updated_ns,
            "data": entry.data,
        }
    )


def _store(ws: Workspace, entry: JournalEntry) -> None:
    doc = _document(ws, entry)
    body = _canonical({"doc": doc, "mac": machinekey.sign(PURPOSE, doc.encode("ascii"))})
    if len(body) > MAX_ENTRY:
        raise JournalTooLarge(f"the journal of this {entry.kind} would pass {MAX_ENTRY} bytes")
    statefs.write_state(ws.state, f"{DIR}/{entry.name}", body.encode("ascii"), 0o600)


def begin(ws: Workspace, kind: str, data: dict[str, Any]) -> JournalEntry:
    """Journal an operation about to start (written and fsynced on return).
    Raises StateUnavailable (or MachineKeyError) when it cannot be journalled:
    the operation must not start then."""
    if not KIND.fullmatch(kind):
        raise ValueError(f"bad journal kind {kind!r}")
    now = time.time_ns()
    owner = Owner.current()
    entry = JournalEntry(
        kind, f"{kind}-{owner.pid}-{secrets.token_hex(6)}.json", owner, now, now, data
    )
    _store(ws, entry)
    return entry


def update(ws: Workspace, entry: JournalEntry, **data: Any) -> None:
    """Record how far the operation got (merged into its data)."""
    entry.data.update(data)
    entry.updated_ns = time.time_ns()
    _store(ws, entry)


def end(ws: Workspace, entry: JournalEntry) -> None:
    """The operation is over (done, failed or undone): forget it."""
    with contextlib.suppress(FileNotFoundError):
        statefs.remove_state(ws.state, f"{DIR}/{entry.name}")


def set_aside(ws: Workspace, entry_name: str, suffix: str) -> str:
    """Keep an entry for a human under another name (not scanned again)."""
    new = f"{entry_name}.{suffix}"
    statefs.rename_state(ws.state, f"{DIR}/{entry_name}", new)
    return new


def _parse(ws: Workspace, name: str, raw: bytes) -> JournalEntry:
    try:
        outer = json.loads(raw)
        doc, mac = outer["doc"], outer["mac"]
        if not isinstance(doc, str):
            raise TypeError("doc")
    except (ValueError, TypeError, KeyError):
        raise ValueError("not a faultlens journal") from None
    if not machinekey.verify(PURPOSE, doc.encode("utf-8"), mac):
        raise ValueError("not signed by faultlens on this machine")
    body = json.loads(doc)
    if body.get("v") != 1 or body.get("state") != str(ws.state):
        raise ValueError("written for another state dir")
    kind, data = body.get("kind"), body.get("data")
    created, updated = body.get("created_ns"), body.get("updated_ns")
    if not isinstance(kind, str) or not isinstance(data, dict):
        raise ValueError("not a faultlens journal")
    if type(created) is not int or type(updated) is not int:
        raise ValueError("not a faultlens journal")
    m = NAME.fullmatch(name)
    if m is None or m.group(1) != kind:
        raise ValueError("renamed")
    return JournalEntry(kind, name, Owner.from_json(body.get("owner")), created, updated, data)


def scan(ws: Workspace) -> list[Found]:
    """Every journal file, verified (oldest first).  Temporary files left by a
    dead writer of the journal itself are removed on the way."""
    names = statefs.list_state(ws.state, DIR)
    found: list[Found] = []
    for name in names[:MAX_ENTRIES]:
        pid = statefs.tmp_pid(name)
        if pid is not None:
            if not pid_exists(pid):
                with contextlib.suppress(OSError):
                    statefs.remove_state(ws.state, f"{DIR}/{name}")
            continue
        if not name.endswith(".json"):
            continue  # set aside (.stale, .refused) or not ours: never read
        try:
            raw = statefs.read_state(ws.state, f"{DIR}/{name}", MAX_ENTRY)
            entry = _parse(ws, name, raw)
        except OSError as exc:
            found.append(Found(name, None, statefs.describe(exc)))
            continue
        except (ValueError, RecursionError) as exc:
            found.append(Found(name, None, str(exc) or "not a faultlens journal"))
            continue
        found.append(Found(name, entry))
    found.sort(key=lambda f: (f.entry.created_ns if f.entry else 0, f.name))
    return found


def journal_dir(ws: Workspace) -> Path:
    return ws.state / DIR

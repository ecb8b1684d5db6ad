"""Applying text edits atomically: all files or none.

How: every target's new content is written to a temporary file beside it and
fsynced; a journal entry (recipes/journal.py: each target's original bytes,
their hash, the hash of the new content, the temporary names; signed with
the machine key) is written and fsynced; then each target is swapped in with
`os.replace` (atomic on POSIX).  When anything fails, the originals are put
back the same way.  When the process dies in the middle (kill -9), the next
start (or the next apply) rolls the half-done change back (`recover_entry`),
so no file is ever left half-written and no change is left half-applied.

The roll back never costs the user an edit: a file is restored only while it
still holds exactly what the interrupted apply wrote (its hash is in the
journal); a file changed since is kept as it is and reported.  A journal
older than recovery.MAX_AGE_S is not rolled back at all (reported, and set
aside for a human).  Every target named by a journal is checked against the
workspace roots again (inside, no symlink, not in `.git`, not in the state
dir) before it is touched.
"""

from __future__ import annotations

import base64
import contextlib
import hashlib
import itertools
import os
import stat
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from faultlens.classifier.lazyre import lazy_compile

from . import journal, statefs
from .model import ApplyError, StateUnavailable, TextEdit, UnsafeEdit, Workspace
from .safety import inside_workspace
from .statefs import TMP_MARK

KIND = "edits"
MAX_FILE = 16 * 1024 * 1024  # a file larger than this is not edited

_LINE_END = lazy_compile(r"\r\n|\r|\n")


# -- pure part ---------------------------------------------------------------
def line_starts(text: str) -> list[int]:
    """Offsets at which each line starts (LSP line ends: \\n, \\r\\n, \\r)."""
    starts = [0]
    starts.extend(m.end() for m in _LINE_END.finditer(text))
    return starts


def offset_of(text: str, starts: Sequence[int], line: int, col: int) -> int:
    """The offset of (line, col); past the end of a line clamps to its end."""
    if line < 0 or col < 0:
        raise ApplyError(f"negative position {line}:{col}")
    if line >= len(starts):
        if line == len(starts) and col == 0:
            return len(text)
        raise ApplyError(f"line {line} is past the end of the file ({len(starts)} lines)")
    begin = starts[line]
    end = starts[line + 1] if line + 1 < len(starts) else len(text)
    content_end = end
    while content_end > begin and text[content_end - 1] in "\r\n":
        content_end -= 1
    return min(begin + col, content_end)


def apply_to_text(text: str, edits: Iterable[TextEdit]) -> str:
    """The text with the edits applied (overlapping edits are refused)."""
    starts = line_starts(text)
    spans = []
    for e in edits:
        a = offset_of(text, starts, e.start_line, e.start_col)
        b = offset_of(text, starts, e.end_line, e.end_col)
        if b < a:
            raise ApplyError(f"edit range ends before it starts in {e.path}")
        spans.append((a, b, e.new_text))
    spans.sort(key=lambda s: (s[0], s[1]))
    for (_a1, b1, _), (a2, _b2, _) in itertools.pairwise(spans):
        if a2 < b1:
            raise ApplyError("overlapping edits")
    out = text
    for a, b, new in reversed(spans):
        out = out[:a] + new + out[b:]
    return out


# -- I/O part ------------------------------------------------------------------
def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


@dataclass(slots=True)
class _Target:
    rel: str
    path: Path
    original: bytes | None  # None: the file did not exist
    new: bytes
    tmp: str | None = None  # the temporary file's name, beside the target
    mode: int = 0o644

    def entry(self) -> dict[str, Any]:
        return {
            "path": self.rel,
            "tmp": self.tmp,
            "original": None if self.original is None else base64.b64encode(self.original).decode(),
            "old": None if self.original is None else _sha(self.original),
            "new": _sha(self.new),
            "size": len(self.new),
            "mode": self.mode & 0o777,
        }


def _fsync_dir(path: Path) -> None:
    with contextlib.suppress(OSError):
        fd = os.open(path, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def _write_tmp(target: Path, data: bytes, mode: int, tmp: str | None = None) -> Path:
    path = target.with_name(tmp or statefs.tmp_name(target.name))
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, mode & 0o777)
    try:
        view = memoryview(data)
        while view:
            n = os.write(fd, view)
            view = view[n:]
        os.fsync(fd)
    finally:
        os.close(fd)
    return path


def _decode(data: bytes, rel: str) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ApplyError(f"{rel} is not UTF-8 text") from exc


def target_path(ws: Workspace, rel: str) -> Path:
    """Where an edit of `rel` lands; UnsafeEdit for anything outside the
    roots, through a symlink, in `.git` or in the state dir."""
    path = inside_workspace(ws, rel)
    if path.is_symlink():
        # Replacing would clobber the link itself; refuse rather than guess.
        raise UnsafeEdit(f"refusing to edit through a symlink: {rel}")
    return path


def _current(path: Path, rel: str) -> tuple[bytes, int] | None:
    """(bytes, mode) of a target, None when it does not exist."""
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        return None
    if not stat.S_ISREG(st.st_mode):
        raise ApplyError(f"{rel} is not a regular file")
    if st.st_size > MAX_FILE:
        raise ApplyError(f"{rel} is larger than {MAX_FILE // (1024 * 1024)} MiB")
    from faultlens.classifier.files import read_bytes

    try:
        return read_bytes(path, MAX_FILE), st.st_mode
    except OSError as exc:
        raise ApplyError(f"cannot read {rel}: {statefs.describe(exc)}") from exc


def _prepare(edits: Sequence[TextEdit], ws: Workspace) -> list[_Target]:
    by_path: dict[str, list[TextEdit]] = {}
    for e in edits:
        by_path.setdefault(e.path, []).append(e)
    targets: list[_Target] = []
    for rel, file_edits in by_path.items():
        path = target_path(ws, rel)
        found = _current(path, rel)
        if found is not None:
            data, mode = found
            original: bytes | None = data
            text = _decode(data, rel)
        else:
            if any(
                (e.start_line, e.start_col, e.end_line, e.end_col) != (0, 0, 0, 0)
                for e in file_edits
            ):
                raise ApplyError(f"{rel} does not exist")
            original, mode, text = None, 0o644, ""
        new = apply_to_text(text, file_edits).encode("utf-8")
        targets.append(_Target(rel, path, original, new, mode=mode))
    return targets


def _put_back(path: Path, original: bytes | None, wrote: str, mode: int) -> str:
    """Undo one target's change if it still holds what we wrote (hash `wrote`):
    "restored", "unchanged" (it never changed) or "kept" (changed since)."""
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        return "unchanged" if original is None else "kept"
    if not stat.S_ISREG(st.st_mode):
        return "kept"
    from faultlens.classifier.files import read_bytes

    try:
        now = read_bytes(path, MAX_FILE)
    except OSError:
        return "kept"
    digest = _sha(now)
    if original is not None and digest == _sha(original):
        return "unchanged"
    if digest != wrote:
        return "kept"
    if original is None:
        path.unlink()
    else:
        os.replace(_write_tmp(path, original, mode), path)
    return "restored"


def _remove_tmp(path: Path, name: object, pid: int) -> None:
    """Remove a temporary file of ours beside `path` (named by statefs.tmp_name
    for `path` by process `pid`); any other name is left alone."""
    if not isinstance(name, str) or "/" in name or statefs.tmp_pid(name) != pid:
        return
    if not name.startswith(f".{path.name}{TMP_MARK}"):
        return
    tmp = path.with_name(name)
    with contextlib.suppress(OSError):
        if stat.S_ISREG(os.lstat(tmp).st_mode):
            tmp.unlink()


def _entry_targets(data: dict[str, Any]) -> list[dict[str, Any]]:
    raw = data.get("targets")
    if not isinstance(raw, list):
        raise ValueError("no targets")
    out = []
    for t in raw:
        if not isinstance(t, dict) or not isinstance(t.get("path"), str):
            raise ValueError("bad target")
        if not isinstance(t.get("new"), str) or not isinstance(t.get("mode"), int):
            raise ValueError("bad target")
        if not (t.get("original") is None or isinstance(t.get("original"), str)):
            raise ValueError("bad target")
        out.append(t)
    return out


def recover_entry(ws: Workspace, entry: journal.JournalEntry, *, stale: bool) -> journal.Recovered:
    """Roll back one interrupted apply (the journal handler of kind "edits")."""
    try:
        targets = _entry_targets(entry.data)
    except ValueError as exc:
        return journal.Recovered(f"ignored a damaged edit journal ({exc})", fields={"bad": True})
    done: dict[str, list[str]] = {"restored": [], "unchanged": [], "kept": [], "refused": []}
    for t in targets:
        rel = t["path"]
        try:
            path = target_path(ws, rel)
        except UnsafeEdit:
            done["refused"].append(rel)
            continue
        _remove_tmp(path, t.get("tmp"), entry.owner.pid)
        if stale:
            continue
        original = None if t["original"] is None else base64.b64decode(t["original"])
        try:
            result = _put_back(path, original, t["new"], int(t["mode"]) & 0o777)
        except OSError:
            result = "kept"
        done[result].append(rel)
    names = [t["path"] for t in targets]
    age = _age(entry.age_s)
    if stale:
        summary = (
            f"an apply interrupted {age} ago was not rolled back (too old to undo safely):"
            f" check {', '.join(names[:8])}; the original text is kept in the journal"
        )
    elif done["restored"]:
        summary = f"rolled back an apply interrupted {age} ago: restored {', '.join(done['restored'][:8])}"
    else:
        summary = f"an apply interrupted {age} ago had changed nothing that needed undoing"
    return journal.Recovered(
        summary,
        kept=done["kept"],
        fields={"files": names, **{k: v for k, v in done.items() if v}, "stale": stale},
    )


def _age(seconds: float) -> str:
    s = max(0, int(seconds))
    if s < 120:
        return f"{s} s"
    if s < 7200:
        return f"{s // 60} min"
    if s < 172800:
        return f"{s // 3600} h"
    return f"{s // 86400} days"


def recover_interrupted(ws: Workspace) -> int:
    """Roll back every apply that a dead process left half-done; how many."""
    from .crash_restore import recover

    return sum(1 for n in recover(ws, kinds=(KIND,)) if n.kind == KIND and n.done)


@dataclass(frozen=True, slots=True)
class Written:
    """One file an apply changed: what it held before (None: the apply made
    it) and the hash of what the apply wrote (recipes/revert.py keeps these,
    so a fix can be reverted while the file still holds exactly that)."""

    path: str
    original: bytes | None
    new_sha: str
    mode: int


def _ready(ws: Workspace) -> None:
    try:
        recover_interrupted(ws)
        ws.state  # noqa: B018 - refuses a state dir that may not be used
    except StateUnavailable as exc:
        raise ApplyError(f"the edits cannot be journalled: {exc}") from exc


def apply_edits(edits: Sequence[TextEdit], ws: Workspace) -> list[Written]:
    """Apply `edits` to the workspace, all or none; what each file held before.

    Raises UnsafeEdit (a path outside the workspace roots, through a symlink
    out, absolute, `..`, into `.git` or the state dir) before touching
    anything, and ApplyError when the edits do not fit the files or the state
    dir cannot hold the journal; in both cases every file is as it was.
    """
    if not edits:
        return []
    _ready(ws)
    return _commit(ws, _prepare(edits, ws))


def write_files(ws: Workspace, contents: Sequence[tuple[str, bytes]]) -> list[Written]:
    """Replace whole files (workspace-relative path, new bytes), all or none,
    journalled like an apply (a kill in the middle is rolled back at the next
    start).  The same checks as `apply_edits`."""
    if not contents:
        return []
    _ready(ws)
    targets = []
    for rel, data in contents:
        path = target_path(ws, rel)
        found = _current(path, rel)
        original, mode = (found[0], found[1]) if found is not None else (None, 0o644)
        targets.append(_Target(rel, path, original, data, mode=mode))
    return _commit(ws, targets)


def _commit(ws: Workspace, targets: list[_Target]) -> list[Written]:
    """Journal the targets, write each beside itself, swap them in; put every
    file back when anything fails."""
    entry: journal.JournalEntry | None = None
    replaced: list[_Target] = []
    made: list[Path] = []
    try:
        # The journal first (it names the temporary files), so a kill at any
        # later point can be rolled back and leaves no temporary file behind.
        for t in targets:
            t.tmp = statefs.tmp_name(t.path.name)
        entry = journal.begin(ws, KIND, {"targets": [t.entry() for t in targets]})
        for t in targets:
            assert t.tmp is not None
            t.path.parent.mkdir(parents=True, exist_ok=True)
            made.append(_write_tmp(t.path, t.new, t.mode, t.tmp))
        for t, tmp in zip(targets, made, strict=True):
            os.replace(tmp, t.path)
            t.tmp = None
            replaced.append(t)
        for parent in {t.path.parent for t in targets}:
            _fsync_dir(parent)
    except BaseException as exc:
        for t in targets:
            if t.tmp is not None:
                with contextlib.suppress(FileNotFoundError):
                    t.path.with_name(t.tmp).unlink()
        for t in reversed(replaced):
            with contextlib.suppress(OSError):
                _put_back(t.path, t.original, _sha(t.new), t.mode)
        if entry is not None:
            with contextlib.suppress(OSError, StateUnavailable):
                journal.end(ws, entry)
        if isinstance(exc, (ApplyError, UnsafeEdit)) or not isinstance(exc, Exception):
            raise
        if isinstance(exc, (StateUnavailable, journal.JournalTooLarge)):
            raise ApplyError(f"the edits cannot be journalled: {exc}") from exc
        raise ApplyError(f"could not apply the edits: {exc}") from exc
    with contextlib.suppress(OSError, StateUnavailable):
        journal.end(ws, entry)
    return [Written(t.rel, t.original, _sha(t.new), t.mode & 0o777) for t in targets]

"""Applying text edits atomically: all files or none.

How: every target's new content is written to a temporary file beside it and
fsynced; a journal (the original bytes of every target, and the temporary
names) is written and fsynced under `state_dir/journal/`; then each target is
swapped in with `os.replace` (atomic on POSIX).  When anything fails, the
originals are put back the same way.  When the process dies in the middle
(kill -9), the next `recover_interrupted(ws)` (called before every apply)
finds the journal and rolls the half-done change back, so no file is ever
left half-written and no change is left half-applied.
"""

from __future__ import annotations

import base64
import contextlib
import itertools
import json
import os
import re
import secrets
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from .model import ApplyError, TextEdit, UnsafeEdit, Workspace
from .safety import inside_workspace

_LINE_END = re.compile(r"\r\n|\r|\n")
TMP_MARK = ".faultlens-tmp-"


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
@dataclass(slots=True)
class _Target:
    rel: str
    path: Path
    original: bytes | None  # None: the file did not exist
    new: bytes
    tmp: Path | None = None
    mode: int = 0o644


def _fsync_dir(path: Path) -> None:
    with contextlib.suppress(OSError):
        fd = os.open(path, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def _tmp_name(target: Path) -> Path:
    return target.with_name(f".{target.name}{TMP_MARK}{os.getpid()}-{secrets.token_hex(4)}")


def _write_tmp(target: Path, data: bytes, mode: int, tmp: Path | None = None) -> Path:
    tmp = tmp or _tmp_name(target)
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, mode & 0o7777)
    try:
        view = memoryview(data)
        while view:
            n = os.write(fd, view)
            view = view[n:]
        os.fsync(fd)
    finally:
        os.close(fd)
    return tmp


def _journal_dir(ws: Workspace) -> Path:
    return ws.state / "journal"


def _decode(data: bytes, rel: str) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ApplyError(f"{rel} is not UTF-8 text") from exc


def _prepare(edits: Sequence[TextEdit], ws: Workspace) -> list[_Target]:
    by_path: dict[str, list[TextEdit]] = {}
    for e in edits:
        by_path.setdefault(e.path, []).append(e)
    targets: list[_Target] = []
    for rel, file_edits in by_path.items():
        path = inside_workspace(ws, rel)
        if path.is_symlink():
            # Replacing would clobber the link itself; refuse rather than guess.
            raise UnsafeEdit(f"refusing to edit through a symlink: {rel}")
        if path.exists():
            if not path.is_file():
                raise ApplyError(f"{rel} is not a regular file")
            data = path.read_bytes()
            original: bytes | None = data
            mode = path.stat().st_mode
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


def _write_journal(ws: Workspace, targets: list[_Target]) -> Path:
    jdir = _journal_dir(ws)
    jdir.mkdir(parents=True, exist_ok=True)
    entries = [
        {
            "path": str(t.path),
            "tmp": str(t.tmp) if t.tmp else None,
            "original": None if t.original is None else base64.b64encode(t.original).decode(),
            "mode": t.mode,
        }
        for t in targets
    ]
    data = json.dumps({"pid": os.getpid(), "targets": entries}).encode()
    final = jdir / f"{os.getpid()}-{secrets.token_hex(6)}.json"
    tmp = _write_tmp(final, data, 0o600)
    os.replace(tmp, final)
    _fsync_dir(jdir)
    return final


def _restore(path: Path, original: bytes | None, mode: int) -> None:
    if original is None:
        with contextlib.suppress(FileNotFoundError):
            path.unlink()
        return
    with contextlib.suppress(FileNotFoundError):
        if path.read_bytes() == original:
            return
    tmp = _write_tmp(path, original, mode)
    os.replace(tmp, path)


def _pid_alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def recover_interrupted(ws: Workspace) -> int:
    """Roll back every apply that a dead process left half-done; return how many."""
    jdir = _journal_dir(ws)
    if not jdir.is_dir():
        return 0
    rolled = 0
    # A journal whose writer died before it was renamed into place: the apply
    # had not started, only the journal's own temporary file is left.
    for tmp in jdir.glob(f".*{TMP_MARK}*"):
        pid = tmp.name.rsplit(TMP_MARK, 1)[1].split("-", 1)[0]
        if pid.isdigit() and not _pid_alive(int(pid)):
            with contextlib.suppress(FileNotFoundError):
                tmp.unlink()
    for journal in sorted(jdir.glob("*.json")):
        try:
            data = json.loads(journal.read_text())
        except (OSError, ValueError):
            continue
        if _pid_alive(int(data.get("pid", 0))):
            continue
        for entry in data.get("targets", []):
            path = Path(entry["path"])
            if entry.get("tmp"):
                with contextlib.suppress(FileNotFoundError):
                    Path(entry["tmp"]).unlink()
            original = entry.get("original")
            _restore(
                path,
                None if original is None else base64.b64decode(original),
                int(entry.get("mode", 0o644)),
            )
        journal.unlink()
        rolled += 1
    return rolled


def apply_edits(edits: Sequence[TextEdit], ws: Workspace) -> None:
    """Apply `edits` to the workspace, all or none.

    Raises UnsafeEdit (a path outside the workspace roots, through a symlink
    out, absolute, `..`) before touching anything, and ApplyError when the
    edits do not fit the files; in both cases every file is as it was.
    """
    if not edits:
        return
    recover_interrupted(ws)
    targets = _prepare(edits, ws)
    journal: Path | None = None
    replaced: list[_Target] = []
    try:
        # The journal first (it names the temporary files), so a kill at any
        # later point can be rolled back and leaves no temporary file behind.
        for t in targets:
            t.tmp = _tmp_name(t.path)
        journal = _write_journal(ws, targets)
        for t in targets:
            assert t.tmp is not None
            t.path.parent.mkdir(parents=True, exist_ok=True)
            _write_tmp(t.path, t.new, t.mode, t.tmp)
        for t in targets:
            assert t.tmp is not None
            os.replace(t.tmp, t.path)
            t.tmp = None
            replaced.append(t)
        for parent in {t.path.parent for t in targets}:
            _fsync_dir(parent)
    except BaseException as exc:
        for t in targets:
            if t.tmp is not None:
                with contextlib.suppress(FileNotFoundError):
                    t.tmp.unlink()
        for t in reversed(replaced):
            with contextlib.suppress(OSError):
                _restore(t.path, t.original, t.mode)
        if journal is not None:
            with contextlib.suppress(FileNotFoundError):
                journal.unlink()
        if isinstance(exc, (ApplyError, UnsafeEdit)) or not isinstance(exc, Exception):
            raise
        raise ApplyError(f"could not apply the edits: {exc}") from exc
    if journal is not None:
        with contextlib.suppress(FileNotFoundError):
            journal.unlink()

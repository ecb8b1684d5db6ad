"""Scratch space that never outlives its operation: temporary folders and git
worktrees, cleaned on success, failure, abort and kill.

    with temp_dir(ws, "triage") as folder:          # <state>/tmp/triage-<random>/
        ...
    with temporary_worktree(ws, repo, "HEAD~3", "bisect") as tree:
        ...                                         # a detached worktree of that commit

Each is journalled (recipes/journal.py) before it is made and forgotten once
it is gone, so a kill -9 in between is cleaned up at the next start by the
handlers below (registered in recipes/crash_restore.py as "paths" and
"git.worktree").  Everything lives under `<state>/tmp/`, and the handlers
remove nothing outside it: a journal, even a signed one, cannot make them
delete a file of the project.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import shutil
import stat
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from . import journal
from .fixes.gitcore import Git
from .fixes.gitrefs import valid_ref
from .model import StateUnavailable, UnsafeEdit, Workspace
from .safety import to_workspace_relative

TMP = "tmp"
_LABEL_OK = frozenset("abcdefghijklmnopqrstuvwxyz0123456789-")


def _scratch_root(ws: Workspace) -> Path:
    root = ws.state / TMP
    root.mkdir(parents=True, exist_ok=True)
    if os.path.realpath(root) != str(root):
        raise StateUnavailable(f"{root} is a symlink: no scratch space there")
    return root


def _new_path(ws: Workspace, label: str) -> Path:
    if not label or set(label) - _LABEL_OK or len(label) > 40:
        raise ValueError(f"bad scratch label {label!r}")
    return _scratch_root(ws) / f"{label}-{secrets.token_hex(6)}"


def _inside_scratch(ws: Workspace, raw: Any) -> Path | None:
    """A journalled path, if it is a direct child of `<state>/tmp/` (resolved,
    not a symlink), else None."""
    if not isinstance(raw, str) or not os.path.isabs(raw):
        return None
    path = Path(raw)
    try:
        scratch = ws.state / TMP
    except StateUnavailable:
        return None
    if path.parent != scratch or os.path.realpath(scratch) != str(scratch):
        return None
    return path


def _remove(path: Path) -> bool:
    """Remove a folder or file (never following a symlink); whether it was there."""
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        return False
    if stat.S_ISDIR(st.st_mode):
        shutil.rmtree(path, ignore_errors=True)
    else:
        with contextlib.suppress(FileNotFoundError):
            path.unlink()
    return True


@contextlib.contextmanager
def temp_dir(ws: Workspace, label: str) -> Iterator[Path]:
    """A fresh folder under `<state>/tmp/`, removed when the block ends however
    it ends, and at the next start if the process is killed."""
    path = _new_path(ws, label)
    entry = journal.begin(ws, "paths", {"paths": [str(path)]})
    try:
        path.mkdir(mode=0o700)
        yield path
    finally:
        _remove(path)
        journal.end(ws, entry)


def recover_paths(ws: Workspace, entry: journal.JournalEntry, *, stale: bool) -> journal.Recovered:
    """Remove the scratch paths an interrupted operation left (handler "paths")."""
    raw = entry.data.get("paths")
    removed, refused = [], []
    for item in raw if isinstance(raw, list) else []:
        path = _inside_scratch(ws, item)
        if path is None:
            refused.append(str(item))
        elif _remove(path):
            removed.append(path.name)
    summary = (
        f"removed the scratch space {', '.join(removed)} an interrupted operation left"
        if removed
        else "an interrupted operation had left no scratch space"
    )
    return journal.Recovered(summary, fields={"removed": removed, "refused": refused})


@contextlib.contextmanager
def temporary_worktree(ws: Workspace, repo: Path, commit: str, label: str) -> Iterator[Path]:
    """A detached git worktree of `commit` of the repository `repo` (inside the
    workspace), under `<state>/tmp/`; removed (and pruned) when the block ends
    however it ends, and at the next start if the process is killed."""
    if not valid_ref(commit) and commit != "HEAD":
        raise UnsafeEdit(f"refusing commit name {commit!r}")
    to_workspace_relative(ws, repo)
    path = _new_path(ws, label)
    git = Git(repo)
    entry = journal.begin(ws, "git.worktree", {"repo": str(repo), "path": str(path)})
    try:
        res = git.run("worktree", "add", "--detach", "--quiet", str(path), commit)
        if res.code != 0:
            raise RuntimeError(f"git worktree add failed: {res.err.strip()[-300:]}")
        yield path
    finally:
        git.run("worktree", "remove", "--force", "--force", str(path))
        _remove(path)
        git.run("worktree", "prune")
        journal.end(ws, entry)


def recover_worktree(
    ws: Workspace, entry: journal.JournalEntry, *, stale: bool
) -> journal.Recovered:
    """Remove a worktree an interrupted operation left (handler "git.worktree")."""
    path = _inside_scratch(ws, entry.data.get("path"))
    repo_raw = entry.data.get("repo")
    if path is None or not isinstance(repo_raw, str):
        return journal.Recovered("ignored a worktree journal naming no scratch space here")
    prune_in: Path | None = Path(repo_raw)
    try:
        to_workspace_relative(ws, repo_raw)
    except UnsafeEdit:
        prune_in = None  # a repository outside the workspace is not touched
    existed = _remove(path)
    if prune_in is not None and prune_in.is_dir():
        Git(prune_in).run("worktree", "prune")
    summary = (
        f"removed the temporary worktree {path.name} an interrupted operation left"
        if existed
        else f"the temporary worktree {path.name} was already gone (pruned)"
    )
    return journal.Recovered(summary, fields={"path": path.name})

"""The git operation journal: what the branch recipe's sync was doing, so that
a kill -9 in the middle never leaves a rebase in progress, HEAD detached and
the work tree half checked out.

`sync` (recipes/fixes/gitsync.py) opens a `GitOp` before it runs anything: a
journal entry of kind "git.sync" (recipes/journal.py, signed with the machine
key) naming the repository, the branch, HEAD before, the upstream, and the
step about to start (`fetch`, `rebase`, `rebase-abort`, `merge`,
`merge-abort`), updated before each step and removed when the sync is over.

`recover_entry` is that kind's start-up handler (recipes/crash_restore.py).  It
acts only on what it recognises as its own operation:

* a rebase in progress whose `head-name` is the branch and whose `orig-head`
  is the journalled HEAD: `git rebase --abort` (then, if git's own state was
  torn by the kill, `git rebase --quit` and a forced checkout of the branch);
* a merge in progress on the branch, at the journalled HEAD, merging the
  journalled upstream commit: `git merge --abort`;
* HEAD detached while the branch still points at the journalled HEAD (a kill
  between a rebase's steps): the branch is checked out again;
* lock files (`index.lock`, ref locks) made after the entry by the killed
  git: removed first, or every later git command would refuse.

Anything else (the user finished the rebase, started another operation,
moved the branch) is left as it is and reported.  Afterwards HEAD, the branch,
the index and the work tree are checked against the journal; the summary says
what was rolled back.
"""

from __future__ import annotations

import contextlib
import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from faultlens.classifier.files import read_bytes
from faultlens.classifier.lazyre import lazy_compile

from .. import journal
from ..model import StateUnavailable, UnsafeEdit, Workspace
from ..safety import to_workspace_relative
from .gitcore import Git, display_ref, not_restored, operation_in_progress
from .gitrefs import valid_ref

KIND = "git.sync"
_SHA = lazy_compile(r"[0-9a-f]{40}(?:[0-9a-f]{24})?", re.ASCII)
# The locks a killed git can leave at the top of the git dir: the index, the
# refs it writes, and the pseudo-refs of a pick (a kill inside one of the
# rebase's picks leaves CHERRY_PICK_HEAD.lock, and `rebase --abort` then
# cannot remove CHERRY_PICK_HEAD).
LOCKS = (
    "index.lock",
    "HEAD.lock",
    "ORIG_HEAD.lock",
    "packed-refs.lock",
    "shallow.lock",
    "CHERRY_PICK_HEAD.lock",
    "REBASE_HEAD.lock",
    "MERGE_HEAD.lock",
    "AUTO_MERGE.lock",
    "REVERT_HEAD.lock",
)


class CannotJournal(RuntimeError):
    """The operation cannot be journalled: it must not start."""


@dataclass(slots=True)
class GitOp:
    """One journalled git operation in flight (see the module docstring)."""

    ws: Workspace
    entry: journal.JournalEntry

    @classmethod
    def begin(cls, ws: Workspace, repo: Path, branch: str, head: str, upstream_ref: str) -> GitOp:
        data: dict[str, Any] = {
            "repo": str(repo),
            "branch": branch,
            "head": head,
            "upstream": upstream_ref,
            "phase": "start",
            "for_pid": os.getppid(),  # the process that claimed the attempt
        }
        try:
            return cls(ws, journal.begin(ws, KIND, data))
        except (OSError, StateUnavailable, ValueError) as exc:
            raise CannotJournal(str(exc) or type(exc).__name__) from exc

    def phase(self, name: str, **data: Any) -> None:
        """Record the step about to start (before git is run for it)."""
        try:
            journal.update(self.ws, self.entry, phase=name, **data)
        except (OSError, StateUnavailable, ValueError) as exc:
            raise CannotJournal(str(exc) or type(exc).__name__) from exc

    def end(self) -> None:
        with contextlib.suppress(OSError, StateUnavailable):
            journal.end(self.ws, self.entry)


# -- recovery ---------------------------------------------------------------------------
def _git_file(git: Git, name: str) -> str | None:
    """The text of a small file in the git dir (`rebase-merge/orig-head`), or None."""
    path = git.out("rev-parse", "--git-path", name)
    if path is None:
        return None
    full = Path(path) if Path(path).is_absolute() else git.cwd / path
    try:
        return read_bytes(full, 4096).decode("utf-8", "replace").strip()
    except OSError:
        return None


def _our_rebase(git: Git, branch: str, head: str) -> bool:
    for folder in ("rebase-merge", "rebase-apply"):
        name = _git_file(git, f"{folder}/head-name")
        if name is not None:
            return name == f"refs/heads/{branch}" and _git_file(git, f"{folder}/orig-head") == head
    return False


def _stale_locks(git: Git, since: float) -> list[str]:
    """Remove lock files git left when it was killed (made after `since`)."""
    gitdir_out = git.out("rev-parse", "--absolute-git-dir")
    if not gitdir_out:
        return []
    gitdir = Path(gitdir_out)
    found = [gitdir / n for n in LOCKS]
    refs = gitdir / "refs"
    if refs.is_dir():
        found += [p for p in refs.rglob("*.lock") if not p.is_symlink()]
    removed = []
    for lock in found:
        try:
            st = os.lstat(lock)
        except FileNotFoundError:
            continue
        if st.st_mtime >= since - 1.0:
            with contextlib.suppress(OSError):
                lock.unlink()
                removed.append(lock.relative_to(gitdir).as_posix())
    return removed


def _wrong(git: Git, branch: str, head: str) -> str | None:
    """None when the branch is checked out at `head` with a clean index and
    work tree and no operation in progress, else what differs."""
    current = git.out("symbolic-ref", "-q", "--short", "HEAD")
    if current != branch:
        return f"HEAD is {'detached' if current is None else 'on ' + current}, not on {branch}"
    return not_restored(git, head)


def _repo(ws: Workspace, raw: Any) -> Path | None:
    """The journalled repository, if it is (still) a work tree inside the roots."""
    if not isinstance(raw, str) or not os.path.isabs(raw):
        return None
    try:
        to_workspace_relative(ws, raw)
    except UnsafeEdit:
        return None
    real = Path(os.path.realpath(raw))
    if not any(real == r or r in real.parents for r in ws.roots):
        return None
    if any(p.casefold() == ".git" for p in real.parts) or not real.is_dir():
        return None
    top = Git(real).out("rev-parse", "--show-toplevel")
    return real if top and Path(top) == real else None


def _abort(git: Git, op: str, branch: str, head: str, since: float) -> tuple[str | None, list[str]]:
    """Abort our rebase or merge; (what is still wrong or None, locks removed)."""
    locks = _stale_locks(git, since)
    git.run(op, "--abort")
    wrong = _wrong(git, branch, head)
    if wrong and op == "rebase":
        # git's rebase state itself was torn by the kill: drop it, then put the
        # branch back (it still points at the journalled HEAD: checked below).
        git.run("rebase", "--quit")
        _stale_locks(git, since)
        if operation_in_progress(git) == "cherry-pick":  # one of our rebase's picks, cut short
            git.run("cherry-pick", "--quit")
        if git.out("rev-parse", "--verify", "-q", f"refs/heads/{branch}") == head:
            git.run("checkout", "-q", "-f", branch)
        wrong = _wrong(git, branch, head)
    return wrong, locks


def recover_entry(ws: Workspace, entry: journal.JournalEntry, *, stale: bool) -> journal.Recovered:
    """Put back a repository whose sync was interrupted (see the module docstring)."""
    d = entry.data
    repo = _repo(ws, d.get("repo"))
    branch, head, upstream = d.get("branch"), d.get("head"), d.get("upstream")
    if repo is None or not (valid_ref(branch) and valid_ref(upstream)):
        return journal.Recovered("ignored an interrupted git sync naming no repository here")
    if not isinstance(head, str) or not _SHA.fullmatch(head):
        return journal.Recovered("ignored an interrupted git sync without its HEAD")
    assert isinstance(branch, str) and isinstance(upstream, str)
    rel = to_workspace_relative(ws, repo) if repo != ws.root else "."
    where = "" if rel == "." else f" in {rel}"
    fields: dict[str, Any] = {"repo": rel, "branch": branch, "head": head, "phase": d.get("phase")}
    for_pid = d.get("for_pid") if isinstance(d.get("for_pid"), int) else None
    git = Git(repo)
    op = operation_in_progress(git)
    onto = display_ref(upstream)

    def done(summary: str, **more: Any) -> journal.Recovered:
        return journal.Recovered(summary, fields={**fields, **more}, on_behalf_of=for_pid)

    if stale:
        return done(
            f"a sync of {branch} onto {onto}{where} was interrupted long ago and is not"
            f" rolled back; `git status` shows {('a ' + op + ' in progress') if op else 'no operation'}",
            stale=True,
        )
    since = entry.created_ns / 1e9
    if op == "rebase" and _our_rebase(git, branch, head):
        wrong, locks = _abort(git, "rebase", branch, head, since)
        if wrong:
            return done(
                f"could not roll back the interrupted rebase of {branch}{where}: {wrong};"
                " run `git rebase --abort` there",
                failed=True,
                locks=locks,
            )
        return done(
            f"rolled back the rebase of {branch} onto {onto}{where} that was interrupted:"
            f" {branch} is back at {head[:12]}, index and work tree as before",
            rolled_back="rebase",
            locks=locks,
        )
    if op == "merge":
        merge_head = _git_file(git, "MERGE_HEAD")
        target = d.get("onto") or git.out("rev-parse", "--verify", "-q", upstream)
        current = git.out("symbolic-ref", "-q", "--short", "HEAD")
        now = git.out("rev-parse", "--verify", "-q", "HEAD")
        if merge_head == target and current == branch and now == head:
            wrong, locks = _abort(git, "merge", branch, head, since)
            if wrong:
                return done(
                    f"could not roll back the interrupted merge of {onto} into {branch}{where}:"
                    f" {wrong}; run `git merge --abort` there",
                    failed=True,
                )
            return done(
                f"rolled back the merge of {onto} into {branch}{where} that was interrupted:"
                f" {branch} is back at {head[:12]}",
                rolled_back="merge",
                locks=locks,
            )
    if op:
        return done(
            f"left the {op} in progress{where} as it is: it is not the one faultlens started"
        )
    current = git.out("symbolic-ref", "-q", "--short", "HEAD")
    now = git.out("rev-parse", "--verify", "-q", "HEAD")
    if current == branch:
        if now == head:
            return done(f"a sync of {branch}{where} was interrupted before git changed anything")
        return done(
            f"the interrupted sync of {branch}{where} had finished: {branch} is at"
            f" {(now or '?')[:12]} (was {head[:12]})",
            finished=True,
        )
    if current is None and git.out("rev-parse", "--verify", "-q", f"refs/heads/{branch}") == head:
        locks = _stale_locks(git, since)
        git.run("checkout", "-q", "-f", branch)
        wrong = _wrong(git, branch, head)
        if wrong is None:
            return done(
                f"put {branch}{where} back at {head[:12]}: the interrupted rebase had left HEAD"
                " detached",
                rolled_back="detached",
                locks=locks,
            )
    return done(
        f"left{where or ' the repository'} as it is: it changed after the sync was interrupted"
    )
